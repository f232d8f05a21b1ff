"use client";

import { BudgetsPanel } from "./budgets-panel.tsx";
import { ChannelsPanel } from "./channels-panel.tsx";
import { PriceImportPanel } from "./price-import-panel.tsx";
import { PoliciesPanel } from "./policies-panel.tsx";
import { PricingPanel } from "./pricing-panel.tsx";
import { RatesPanel } from "./rates-panel.tsx";
import { RepricePanel } from "./reprice-panel.tsx";
import { RulesPanel } from "./rules-panel.tsx";

/** Budgets and the pricing catalogue for finance and admins; rules and channels for admins only. */
export function SettingsView({
  rules,
  channels,
  pricing,
  policies = "none",
}: {
  rules: boolean;
  /** idle-release policies: "write" for admins, "read" for operators and finance */
  policies?: "none" | "read" | "write";
  channels: boolean;
  /** may add, change and retire catalogue prices */
  pricing: boolean;
}) {
  const parts = [
    rules && "alert rules",
    policies !== "none" && "idle-release policies",
    "monthly budgets",
    "the pricing catalogue",
    channels && "where notifications go",
  ];
  const summary = parts.filter(Boolean).join(", ");
  return (
    <>
      <div className="page-title">
        <h1>Settings</h1>
        <p>{summary.charAt(0).toUpperCase() + summary.slice(1)}.</p>
      </div>
      <div className="settings-sections">
        {rules && <RulesPanel />}
        {policies !== "none" ? <PoliciesPanel canWrite={policies === "write"} /> : null}
        <BudgetsPanel />
        <PricingPanel canWrite={pricing} />
        <RatesPanel canWrite={pricing} />
        {pricing ? <PriceImportPanel /> : null}
        {pricing ? <RepricePanel /> : null}
        {channels && <ChannelsPanel />}
      </div>
    </>
  );
}
