"use client";

import { PriceImportPanel } from "./price-import-panel.tsx";
import { PricingPanel } from "./pricing-panel.tsx";
import { RatesPanel } from "./rates-panel.tsx";
import { RatesUploadPanel } from "./rates-upload-panel.tsx";
import { RepricePanel } from "./reprice-panel.tsx";
import { SettingsTabs } from "./settings-tabs.tsx";

/** The pricing catalogue, exchange rates, imports and re-pricing: finance's page under settings. */
export function PricingView({ canWrite }: { canWrite: boolean }) {
  return (
    <>
      <div className="page-title">
        <h1>Pricing catalogue</h1>
        <p>
          The prices and exchange rates the cost ledger uses
          {canWrite ? ", their imports, and re-pricing a month after a change" : ""}.
        </p>
      </div>
      <SettingsTabs />
      <div className="settings-sections">
        <PricingPanel canWrite={canWrite} />
        <RatesPanel canWrite={canWrite} />
        {canWrite ? <PriceImportPanel /> : null}
        {canWrite ? <RatesUploadPanel /> : null}
        {canWrite ? <RepricePanel /> : null}
      </div>
    </>
  );
}
