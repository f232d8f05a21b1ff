// Builders shared by the re-pricing tests (test-only; nothing in the app imports this).
import type { PriceLookup } from "../pricing/lookup.ts";
import { GIB } from "./ledger-fixtures.ts";
import type { HostAttribution } from "./ledger-types.ts";
import type { RepricedRow } from "./reprice-math.ts";

export const priced = (usdPerHourMicros: bigint): PriceLookup => ({
  priced: true,
  usdPerHourMicros,
  currency: "USD",
  gpuModel: "A100",
  gpuCount: 8,
  gpuMemoryBytes: 40n * BigInt(GIB),
  region: "*",
  effectiveFrom: new Date("2020-01-01T00:00:00Z"),
  source: "test",
  note: null,
});
export const UNPRICED: PriceLookup = {
  priced: false,
  missing: "instance_type",
  reason: "no catalogue price for test",
};

export const attribution = (over: Partial<HostAttribution> = {}): HostAttribution => ({
  provider: "testcloud",
  instanceType: "tc.8gpu",
  region: "r1",
  pricingModel: "on_demand",
  team: "ml",
  project: "llm",
  ...over,
});

/** The money columns of rows, for comparing what re-pricing wrote with what the ledger writes. */
export const money = (
  rows: readonly Pick<
    RepricedRow,
    "gpuKey" | "costMicros" | "idleCostMicros" | "priced" | "currency"
  >[],
) =>
  rows.map((r) => ({
    gpuKey: r.gpuKey,
    costMicros: r.costMicros,
    idleCostMicros: r.idleCostMicros,
    priced: r.priced,
    currency: r.currency,
  }));
