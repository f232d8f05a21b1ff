import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMicros } from "@/lib/core/money.ts";
import type { Db } from "@/lib/db.ts";
import { makeTestDb } from "@/lib/testing/test-db.ts";
import { buildFleet } from "../../exporter/sim/fleet.ts";
import { importBill } from "../billing/import.ts";
import { getReconciliation } from "../billing/reconcile.ts";
import { catalogueRows } from "../pricing/catalogue.ts";
import { demoBillRows, UNMONITORED } from "./billing.ts";
import { createDemoHost } from "./seed.ts";

// The demo's bill for November 2026: the simulated AWS, Azure and GCP hosts by their instance
// ids, spot and savings-plan days priced away from the list, and two GPU instances that the demo
// does not monitor, which the reconciliation lists.

const fleet = buildFleet({ seed: 42, hosts: 24 });
const prices = catalogueRows();
const rows = [...demoBillRows(fleet, prices, "2026-11")];
const of = (hostname: string) =>
  rows.filter(
    (r) =>
      r.ResourceId.endsWith(`/${hostname}`) ||
      r.ResourceId.endsWith(`/${fleet.hosts.find((h) => h.hostname === hostname)?.instanceId}`),
  );

describe("the demo bill", () => {
  it("bills every day of the month for each AWS, Azure and GCP host, and the two unmonitored ones", () => {
    const cloud = fleet.hosts.filter((h) => ["aws", "azure", "gcp"].includes(h.provider));
    expect(rows.filter((r) => r.ChargeCategory === "Usage")).toHaveLength((cloud.length + 2) * 30);
    expect(of("gpu-alibaba-sha-020")).toHaveLength(0);
    expect(UNMONITORED).toHaveLength(2);
  });

  it("prices spot days away from the list and savings-plan days at the committed rate", () => {
    const spot = of("gpu-aws-use1-006").filter((r) => r.ChargeCategory === "Usage");
    expect(spot.every((r) => r.PricingCategory === "Dynamic")).toBe(true);
    expect(new Set(spot.map((r) => r.EffectiveCost)).size).toBeGreaterThan(5);
    const sp = of("gpu-aws-use1-001")[0];
    expect(sp).toMatchObject({
      BilledCost: "0.000000",
      CommitmentDiscountType: "Compute Savings Plans",
    });
    // 72 % of the list, each hour rounded to the micro: within 24 micros of the day's 72 %
    const gap =
      parseMicros(sp?.EffectiveCost ?? "") * 1000n - parseMicros(sp?.ListCost ?? "") * 720n;
    expect(gap < 0n ? -gap : gap).toBeLessThanOrEqual(24n * 1000n);
  });

  describe("imported beside the demo hosts", () => {
    let db: Db;
    beforeAll(async () => {
      db = makeTestDb().db;
      for (const h of fleet.hosts)
        await createDemoHost(db, h, "http://127.0.0.1:1", new Date("2026-10-01T00:00:00Z"));
      await importBill(db, rows, { file: "demo.csv", by: "demo", dryRun: false, rates: [] });
    });
    afterAll(async () => db.$disconnect());

    it("matches every billed demo host and lists the two instances nobody monitors", async () => {
      const r = await getReconciliation(db, "2026-11");
      expect(r.hosts).toHaveLength(
        fleet.hosts.filter((h) => ["aws", "azure", "gcp"].includes(h.provider)).length,
      );
      expect(r.unmonitored.map((u) => u.instanceType).sort()).toEqual([
        "Standard_NC4as_T4_v3",
        "p4d.24xlarge",
      ]);
      expect(r.notBilled).toHaveLength(0); // no ledger in this store: nothing estimated either
    });
  });
});
