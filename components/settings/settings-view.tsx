"use client";

import { BudgetsPanel } from "./budgets-panel.tsx";
import { ChannelsPanel } from "./channels-panel.tsx";
import { PoliciesPanel } from "./policies-panel.tsx";
import { RulesPanel } from "./rules-panel.tsx";
import { SettingsTabs } from "./settings-tabs.tsx";

/**
 * Budgets for finance and admins; rules and channels for admins only. The pricing catalogue has a
 * page of its own (/settings/pricing), one tab over.
 */
export function SettingsView({
  rules,
  channels,
  policies = "none",
}: {
  rules: boolean;
  /** idle-release policies: "write" for admins, "read" for operators and finance */
  policies?: "none" | "read" | "write";
  channels: boolean;
}) {
  const parts = [
    rules && "alert rules",
    policies !== "none" && "idle-release policies",
    "monthly budgets",
    channels && "where notifications go",
  ];
  const summary = parts.filter(Boolean).join(", ");
  return (
    <>
      <div className="page-title">
        <h1>Settings</h1>
        <p>{summary.charAt(0).toUpperCase() + summary.slice(1)}.</p>
      </div>
      <SettingsTabs />
      <div className="settings-sections">
        {rules && <RulesPanel />}
        {policies !== "none" ? <PoliciesPanel canWrite={policies === "write"} /> : null}
        <BudgetsPanel />
        {channels && <ChannelsPanel />}
      </div>
    </>
  );
}
