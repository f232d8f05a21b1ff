"use client";

import { BudgetsPanel } from "./budgets-panel.tsx";
import { ChannelsPanel } from "./channels-panel.tsx";
import { RulesPanel } from "./rules-panel.tsx";

export function SettingsView() {
  return (
    <>
      <div className="page-title">
        <h1>Settings</h1>
        <p>Alert rules, monthly budgets and where notifications go.</p>
      </div>
      <div className="settings-sections">
        <RulesPanel />
        <BudgetsPanel />
        <ChannelsPanel />
      </div>
    </>
  );
}
