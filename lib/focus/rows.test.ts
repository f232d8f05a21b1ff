import { describe, expect, it } from "vitest";
import { formatDateTime, formatScaled } from "./columns.ts";
import { focusCsvChunk } from "./csv.ts";
import { providerNames } from "./providers.ts";
import {
  buildFocusRows,
  pricingCategory,
  utcMonth,
  type FocusContext,
  type LedgerHour,
} from "./rows.ts";

const ctx = (onDemand: (h: LedgerHour) => bigint | null = () => null): FocusContext => ({
  hosts: new Map([["h1", { hostname: "gpu-1", owner: "bob", labels: { team: "label-team" } }]]),
  onDemandPrice: onDemand,
  catalogueGpuCount: () => null,
});

const at = (iso: string) => new Date(`${iso}:00:00Z`);

const hour = (iso: string, over: Partial<LedgerHour> = {}): LedgerHour => ({
  hostId: "h1",
  hourStart: at(iso),
  provider: "azure",
  instanceType: "Standard_ND96asr_v4",
  region: "eastus",
  pricingModel: "on_demand",
  team: "a",
  project: "p",
  currency: "USD",
  upSeconds: 3600,
  costMicros: 27_197_000n,
  idleCostMicros: 0n,
  gpuModel: "A100",
  utilMean: null,
  gpuCount: 8,
  gpuSeconds: 8 * 3600,
  ...over,
});

describe("buildFocusRows", () => {
  it("splits a day where the attribution changed, and leaves out hours with no up time", () => {
    const rows = buildFocusRows(
      [
        hour("2026-12-31T22"),
        hour("2026-12-31T23", { team: "b" }),
        hour("2026-12-31T21", { upSeconds: 0, costMicros: 0n }),
      ],
      ctx(),
      "daily",
    );
    expect(rows.map((r) => [r.Tags.team, formatScaled(r.EffectiveCost, 6)])).toEqual([
      ["a", "27.197000"],
      ["b", "27.197000"],
    ]);
    // the month of 31 December ends at the new year
    expect(formatDateTime(rows[0]?.BillingPeriodEnd ?? new Date(0))).toBe("2027-01-01T00:00:00Z");
    // the ledger's attribution, not a host label of the same name, is the team tag
    expect(rows[0]?.Tags).toMatchObject({ team: "a", owner: "bob" });
  });

  it("bills hours on actuals at the bill's cost and lists them at the ledger's estimate", () => {
    const rows = buildFocusRows(
      [
        hour("2026-11-05T10", {
          costMicros: 21_500_000n,
          actualSource: "bill",
          listCostMicros: 27_197_000n,
        }),
        hour("2026-11-05T11", {
          costMicros: 21_400_000n,
          actualSource: "bill",
          listCostMicros: 27_197_000n,
        }),
        hour("2026-11-05T12"), // no bill row: the list estimate
      ],
      ctx(),
      "daily",
    );
    expect(
      rows.map((r) => [r.x_CostSource, r.BilledCost, r.EffectiveCost, r.ListCost, r.ListUnitPrice]),
    ).toEqual([
      ["bill", 42_900_000n, 42_900_000n, 54_394_000n, 27_197_000n],
      ["list_estimate", 27_197_000n, 27_197_000n, 27_197_000n, 27_197_000n],
    ]);
  });

  it("splits a spot day where the on-demand list price changed, so unit price × hours holds", () => {
    const price = (h: LedgerHour) => (h.hourStart.getUTCHours() < 12 ? 30_000_000n : 33_000_000n);
    const rows = buildFocusRows(
      [
        hour("2026-11-05T10", { pricingModel: "spot", costMicros: 9_000_000n }),
        hour("2026-11-05T11", { pricingModel: "spot", costMicros: 9_000_000n }),
        hour("2026-11-05T12", { pricingModel: "spot", costMicros: 9_500_000n }),
      ],
      ctx(price),
      "daily",
    );
    expect(rows.map((r) => [r.ListUnitPrice, r.PricingQuantity, r.ListCost, r.BilledCost])).toEqual(
      [
        [30_000_000n, 2_000_000_000n, 60_000_000n, 18_000_000n],
        [33_000_000n, 1_000_000_000n, 33_000_000n, 9_500_000n],
      ],
    );
  });

  it("derives an on-demand unit price from the ledger, rounded to the micro", () => {
    const [row] = buildFocusRows(
      [hour("2026-11-05T10", { upSeconds: 1199, costMicros: 9_058_112n })],
      ctx(),
      "hourly",
    );
    expect(formatScaled(row?.PricingQuantity ?? 0n, 9)).toBe("0.333055556");
    expect(formatScaled(row?.ListUnitPrice ?? 0n, 6)).toBe("27.197000");
    expect(row).toMatchObject({ x_ListPriceSource: "ledger", x_GpuCount: 8 });
  });

  it("maps pricing models and providers to FOCUS values", () => {
    expect(
      ["on_demand", "On-Demand", "spot", "preemptible", "reserved", "savings_plan", "x"].map(
        pricingCategory,
      ),
    ).toEqual(["Standard", "Standard", "Dynamic", "Dynamic", "Committed", "Committed", "Other"]);
    expect(providerNames("AWS").serviceName).toBe("Amazon Elastic Compute Cloud");
    expect(providerNames("on-prem").providerName).toBe("On-Premises");
    expect(providerNames("lambda")).toMatchObject({
      providerName: "lambda",
      serviceSubcategory: "Other (Compute)",
    });
    expect(providerNames("unknown").providerName).toBe("Unknown");
  });

  it("formats exact decimals and FOCUS instants", () => {
    expect(formatScaled(1n, 6)).toBe("0.000001");
    expect(formatScaled(-1_500_000n, 6)).toBe("-1.500000");
    expect(formatScaled(2_500_000_000n, 9)).toBe("2.500000000");
    expect(formatDateTime(new Date("2026-11-01T05:00:00.000Z"))).toBe("2026-11-01T05:00:00Z");
    expect(utcMonth(new Date("2028-02-29T23:00:00Z")).end.toISOString()).toBe(
      "2028-03-01T00:00:00.000Z",
    );
  });

  it("escapes formula-looking text cells in the CSV, and only those", () => {
    const hosts = new Map([["h1", { hostname: "=cmd|'/C calc'!A0", owner: null, labels: {} }]]);
    const rows = buildFocusRows([hour("2026-11-05T10")], { ...ctx(), hosts }, "hourly");
    const csv = focusCsvChunk(rows, true);
    expect(csv).toContain(`'=cmd|'/C calc'!A0`);
    expect(csv).toContain(",27.197000,");
    expect(csv.split("\n")[0]?.startsWith("AvailabilityZone,BilledCost,")).toBe(true);
  });
});
