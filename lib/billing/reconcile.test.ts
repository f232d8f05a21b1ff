import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatCents, parseMicros, roundToUnit, sumMicros } from "@/lib/core/money.ts";
import type { Db } from "@/lib/db.ts";
import { makeTestDb } from "@/lib/testing/test-db.ts";
import { importBill } from "./import.ts";
import { hostKeys, instanceKey } from "./instance-key.ts";
import { hostMatcher } from "./match.ts";
import { readBillFile } from "./read.ts";
import { getReconciliation, type Reconciliation } from "./reconcile.ts";

// A month reconciled against three small FOCUS bills (AWS, Azure, GCP): hosts matched by ARN,
// Azure resource id and GCP instance id, every variance explained, one GPU instance that no host
// answers to, hosts that no bill mentions, and tables that add up to the bills' total to the cent.

const FIXTURES = join(import.meta.dirname, "fixtures");
const H = 3_600_000;
const D3 = Date.parse("2026-11-03T00:00:00Z");
const D4 = Date.parse("2026-11-04T00:00:00Z");

describe("instance keys", () => {
  it("understands an AWS ARN, an Azure resource id and a GCP resource name", () => {
    expect(instanceKey("arn:aws:ec2:us-east-1:222222222222:instance/i-0A1B")).toBe("i-0a1b");
    expect(instanceKey("i-0a1b")).toBe("i-0a1b");
    expect(
      instanceKey(
        "/subscriptions/s/resourceGroups/ML/providers/Microsoft.Compute/virtualMachines/GPU-Box-1",
      ),
    ).toBe("gpu-box-1");
    expect(
      instanceKey("//compute.googleapis.com/projects/p/zones/us-central1-a/instances/4715"),
    ).toBe("4715");
    expect(hostKeys({ provider: "azure", hostname: "GPU-Box-1", instanceId: "9f1c-guid" })).toEqual(
      ["9f1c-guid", "gpu-box-1"],
    );
  });

  it("matches on provider and region too", () => {
    const match = hostMatcher([
      { id: "a", hostname: "h", provider: "aws", region: "us-east-1", instanceId: "i-1" },
    ]);
    expect(match({ provider: "aws", instanceKey: "i-1", region: "us-east-1" })?.id).toBe("a");
    expect(match({ provider: "aws", instanceKey: "i-1", region: "" })?.id).toBe("a");
    expect(match({ provider: "aws", instanceKey: "i-1", region: "eu-west-1" })).toBeNull();
    expect(match({ provider: "gcp", instanceKey: "i-1", region: "us-east-1" })).toBeNull();
  });
});

describe("a month reconciled", () => {
  let db: Db;
  let r: Reconciliation;
  let billTotal = 0n;

  async function host(hostname: string, over: Record<string, string | null>): Promise<string> {
    const h = await db.host.create({
      data: { hostname, provider: "aws", region: "us-east-1", team: "research", ...over },
    });
    return h.id;
  }
  async function ledger(hostId: string, hours: number[], cost: string, priced = true) {
    await db.usageHour.createMany({
      data: hours.map((t) => ({
        hourStart: new Date(t),
        hostId,
        gpuKey: "host",
        provider: "aws",
        instanceType: "x",
        region: "r",
        pricingModel: "on_demand",
        team: "research",
        project: "p",
        upSeconds: 3600,
        samples: 60,
        idleSeconds: 0,
        priced,
        costMicros: parseMicros(cost),
        idleCostMicros: 0n,
        source: "test",
      })),
    });
  }

  beforeAll(async () => {
    db = makeTestDb().db;
    const a = await host("gpu-aws-use1-001", {
      instanceId: "i-0a1b2c3d4e5f60001",
      instanceType: "p4d.24xlarge",
    });
    const b = await host("gpu-aws-use1-006", {
      instanceId: "i-0a1b2c3d4e5f60002",
      pricingModel: "spot",
    });
    const c = await host("gpu-aws-use1-002", {
      instanceId: "i-0a1b2c3d4e5f60003",
      pricingModel: "reserved",
    });
    const d = await host("gpu-azure-eus-017", {
      provider: "azure",
      region: "eastus",
      team: "vision",
      instanceId: "5c3a1f0e-0000-4000-8000-000000000017",
    });
    const e = await host("gpu-gcp-usc1-012", {
      provider: "gcp",
      region: "us-central1",
      instanceId: "4715279394561234567",
    });
    const f = await host("gpu-aws-use1-099", { instanceId: "i-0ffffffffffffffff" });
    const g = await host("dgx-dc1-001", { provider: "onprem", region: "dc1", team: "platform" });
    // host a: billed a day, but the exporter missed 11:00 of it
    await ledger(
      a,
      [D3, ...Array.from({ length: 24 }, (_, i) => D4 + i * H).filter((t) => t !== D4 + 11 * H)],
      "32.7726",
    );
    await ledger(b, [D3 + H], "1.006"); // spot at the list price
    await ledger(c, [D3], "98.32"); // list, billed under a savings plan
    await ledger(d, [D3], "27.197"); // list, billed under a reservation
    await ledger(e, [D3], "88.702");
    await ledger(f, [D3], "5");
    await ledger(g, [D3], "0", false);
    for (const name of ["focus-aws.csv", "focus-azure.csv", "focus-gcp.csv"]) {
      const rep = await importBill(db, readBillFile(join(FIXTURES, name)), {
        file: name,
        by: "finance@example.com",
        dryRun: false,
        rates: [],
      });
      billTotal += BigInt(rep.effectiveMicros);
    }
    r = await getReconciliation(db, "2026-11");
  });
  afterAll(async () => {
    await db.$disconnect();
  });

  it("matches hosts by ARN, plain instance id, Azure resource id and GCP instance id", () => {
    expect(r.hosts.map((h) => h.name).sort()).toEqual([
      "gpu-aws-use1-001",
      "gpu-aws-use1-002",
      "gpu-aws-use1-006",
      "gpu-azure-eus-017",
      "gpu-gcp-usc1-012",
    ]);
  });

  it("lists the GPU instance on the bill that no host answers to", () => {
    expect(r.unmonitored).toHaveLength(1);
    expect(r.unmonitored[0]).toMatchObject({
      provider: "azure",
      team: "(not monitored)",
      pricingModel: "spot",
      instanceType: "Standard_NC4as_T4_v3",
      effectiveMicros: "52600",
      estimateMicros: "0",
    });
    expect(r.unmonitored[0]?.name).toMatch(/virtualMachines\/gpu-azure-eus-019$/);
  });

  it("explains each host's variance by reason, to the micro", () => {
    const by = (n: string) => r.hosts.find((h) => h.name === n);
    const a = by("gpu-aws-use1-001");
    expect(a).toMatchObject({
      estimateMicros: "786542400",
      effectiveMicros: "809315000",
      varianceMicros: "22772600",
    });
    expect(a?.reasons.map((x) => [x.reason, x.micros])).toEqual([
      ["exporter_missed", "32772600"],
      ["credit_refund", "-10000000"],
    ]);
    expect(by("gpu-aws-use1-006")?.reasons.map((x) => [x.reason, x.micros])).toEqual([
      ["spot_price", String(412_346n - 1_006_000n)],
    ]);
    expect(by("gpu-aws-use1-002")?.reasons[0]).toMatchObject({
      reason: "commitment",
      micros: "-27776800",
    });
    expect(by("gpu-azure-eus-017")?.reasons[0]).toMatchObject({
      reason: "commitment",
      micros: "-7747000",
    });
    expect(by("gpu-gcp-usc1-012")).toMatchObject({ varianceMicros: "0", reasons: [] });
  });

  it("lists the hosts no bill mentions, with why", () => {
    expect(r.notBilled.map((h) => [h.hostname, h.why])).toEqual([
      ["dgx-dc1-001", "on-prem: no cloud bill"],
      ["gpu-aws-use1-099", "its instance id is on no imported bill (wrong id, or another account)"],
    ]);
  });

  it("adds up to the bills' total to the cent, in every table", () => {
    const cents = (s: string) => parseMicros(s);
    const total = formatCents(roundToUnit(billTotal));
    expect(r.total.effectiveMicros).toBe(billTotal.toString());
    expect(r.total.display.effective).toBe(total);
    const rows = [...r.hosts, ...r.unmonitored];
    for (const table of [rows, r.byTeam, r.byProvider, r.byPricingModel]) {
      const sum = sumMicros(table.map((x) => cents(x.display.effective)));
      expect(formatCents(sum)).toBe(total);
      const est = sumMicros(table.map((x) => cents(x.display.estimate)));
      expect(formatCents(est)).toBe(r.total.display.estimate);
    }
    expect(r.byTeam.map((t) => t.key)).toContain("(not monitored)");
    expect(r.largest[0]?.name).toBe("gpu-aws-use1-002");
  });

  it("replaces an earlier import of the same provider and month", async () => {
    const rep = await importBill(db, readBillFile(join(FIXTURES, "focus-aws.csv")), {
      file: "again.csv",
      by: "finance@example.com",
      dryRun: false,
      rates: [],
    });
    expect(rep.replaced).toBe(1);
    const again = await getReconciliation(db, "2026-11");
    expect(again.total.effectiveMicros).toBe(r.total.effectiveMicros);
    expect(again.imports.map((i) => i.file).sort()).toEqual([
      "again.csv",
      "focus-azure.csv",
      "focus-gcp.csv",
    ]);
  });
});

describe("an hour the exporter answered for part of", () => {
  it("puts the unseen part of the billed hour under missed hours, the rest under its rate", async () => {
    const { explainVariance } = await import("./reasons.ts");
    const reasons = explainVariance(
      [{ hourStart: 0, costMicros: 1_500_000n, upSeconds: 1800, priced: true }],
      [
        {
          hourStart: 0,
          usageEffective: 2_000_000n,
          creditEffective: 0n,
          hasUsage: true,
          models: new Set(["spot"]),
        },
      ],
    );
    expect([...reasons.entries()]).toEqual([
      ["exporter_missed", 1_000_000n],
      ["spot_price", -500_000n],
    ]);
  });
});
