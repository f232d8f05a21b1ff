import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMicros } from "@/lib/core/money.ts";
import type { Db } from "@/lib/db.ts";
import { applyReprice, previewReprice } from "@/lib/ledger/reprice.ts";
import { getCostMonth } from "@/lib/spend/get-cost-month.ts";
import { makeTestDb } from "@/lib/testing/test-db.ts";
import { actualsStatus, applyActuals, loadMonthActuals, previewActuals } from "./actuals.ts";
import { getReconciliation } from "./reconcile.ts";

// Re-pricing a month from the imported bill (issue 26): exactly the matched host-hours take their
// billed effective cost (credits in the hour included), split over their GPU rows as the ledger
// splits a cost, with the list estimate kept beside; unmatched hours keep the list price; a second
// apply changes nothing; the preview shows the old and new totals to the micro-dollar.

const H = 3_600_000;
const T0 = Date.parse("2026-11-10T00:00:00Z");
const NOW = new Date("2026-12-02T12:00:00Z");
const MONTH = "2026-11";
const $ = parseMicros;

describe("actuals from the imported bill", () => {
  let db: Db;
  let billed: string;
  let unbilled: string;

  async function host(hostname: string, instanceId: string): Promise<string> {
    const h = await db.host.create({
      data: { hostname, provider: "aws", region: "us-east-1", team: "research", instanceId },
    });
    return h.id;
  }
  /** A 2-GPU host-hour at $10/h: host row, two GPU rows ($5 each, GPU b idle half the hour). */
  async function hour(hostId: string, t: number, host = "10", gpu = "5") {
    const base = {
      hourStart: new Date(t),
      hostId,
      provider: "aws",
      instanceType: "g5.12xlarge",
      region: "us-east-1",
      pricingModel: "spot",
      team: "research",
      project: "p",
      upSeconds: 3600,
      samples: 60,
      priced: true,
      source: "test",
    };
    await db.usageHour.createMany({
      data: [
        { ...base, gpuKey: "host", idleSeconds: 0, costMicros: $(host), idleCostMicros: $("2.5") },
        { ...base, gpuKey: "gpu-a", idleSeconds: 0, costMicros: $(gpu), idleCostMicros: 0n },
        {
          ...base,
          gpuKey: "gpu-b",
          idleSeconds: 1800,
          costMicros: $(gpu),
          idleCostMicros: $("2.5"),
        },
      ],
    });
  }
  const line = (instance: string, t: number, effective: string, chargeCategory = "Usage") => ({
    provider: "aws",
    account: "111122223333",
    resourceId: `arn:aws:ec2:us-east-1:111122223333:instance/${instance}`,
    instanceKey: instance,
    instanceType: "g5.12xlarge",
    region: "us-east-1",
    hourStart: new Date(t),
    chargeCategory,
    pricingModel: "spot",
    billedMicros: $(effective),
    effectiveMicros: $(effective),
    listMicros: null,
  });
  const rowsOf = (hostId: string, t: number) =>
    db.usageHour.findMany({
      where: { hostId, hourStart: new Date(t) },
      orderBy: { gpuKey: "asc" },
      select: {
        gpuKey: true,
        costMicros: true,
        idleCostMicros: true,
        listCostMicros: true,
        actualSource: true,
        priced: true,
      },
    });

  beforeAll(async () => {
    db = makeTestDb().db;
    billed = await host("gpu-aws-use1-001", "i-0aaa");
    unbilled = await host("gpu-aws-use1-002", "i-0bbb");
    for (const t of [T0, T0 + H, T0 + 2 * H]) await hour(billed, t);
    await hour(unbilled, T0, "3", "1.5");
    await db.billingImport.create({
      data: {
        file: "focus.csv",
        provider: "aws",
        format: "focus",
        period: MONTH,
        rowsRead: 5,
        rowsKept: 5,
        billedMicros: 0n,
        effectiveMicros: 0n,
        importedBy: "finance@example.com",
        lines: {
          create: [
            line("i-0aaa", T0, "7.123457"),
            line("i-0aaa", T0, "-0.1", "Credit"), // a credit in the same hour
            line("i-0aaa", T0 + H, "6.5"),
            // T0 + 2h is not on the bill: that hour stays an estimate
            line("i-0zzz", T0, "4"), // a GPU nobody monitors: no ledger hour to re-price
          ],
        },
      },
    });
  });
  afterAll(async () => db.$disconnect());

  it("finds the billed effective cost of each matched host-hour", async () => {
    const a = await loadMonthActuals(db, MONTH);
    expect(a.byHostHour).toEqual(
      new Map([
        [`${billed}|${T0}`, $("7.023457")],
        [`${billed}|${T0 + H}`, $("6.5")],
      ]),
    );
    expect(a.imports).toHaveLength(1);
  });

  it("previews the old and new totals, to the micro-dollar, and writes nothing", async () => {
    const p = await previewActuals({ month: MONTH, now: NOW }, db);
    expect(p).toMatchObject({
      source: "bill",
      applied: false,
      closed: true,
      oldTotalMicros: $("33").toString(), // 3 × $10 + $3
      newTotalMicros: $("26.523457").toString(), // 7.023457 + 6.5 + 10 + 3
      deltaMicros: $("-6.476543").toString(),
      hours: { total: 4, changed: 2, actualAfter: 2 },
      rowsChanged: 6,
      hostsChanged: 1,
    });
    expect(await actualsStatus(db, MONTH)).toEqual({ hours: 4, actualHours: 0 });
  });

  it("refuses a stale preview's total, and a closed month without reopen", async () => {
    await expect(
      applyActuals(
        { month: MONTH, now: NOW, by: "f@x", expectedNewTotalMicros: "1", reopen: true },
        db,
      ),
    ).rejects.toThrow(/preview again/);
    await expect(
      applyActuals({ month: MONTH, now: NOW, by: "f@x", expectedNewTotalMicros: "1" }, db),
    ).rejects.toThrow(/closed/);
    expect(await actualsStatus(db, MONTH)).toEqual({ hours: 4, actualHours: 0 });
  });

  it("changes exactly the matched hours, keeps their estimate, and audits it", async () => {
    const p = await previewActuals({ month: MONTH, now: NOW }, db);
    const r = await applyActuals(
      {
        month: MONTH,
        now: NOW,
        by: "finance@example.com",
        expectedNewTotalMicros: p.newTotalMicros,
        reopen: true,
      },
      db,
    );
    expect(r).toMatchObject({ applied: true, reopened: true, newTotalMicros: p.newTotalMicros });
    const on = (cost: string, idle: string, list: string) => ({
      costMicros: $(cost),
      idleCostMicros: $(idle),
      listCostMicros: $(list),
      actualSource: "bill",
      priced: true,
    });
    // $7.023457 split evenly over the two GPUs in uuid order (the odd micro to the first); GPU b
    // idle half the hour, so half its share is idle cost
    expect(await rowsOf(billed, T0)).toEqual([
      { gpuKey: "gpu-a", ...on("3.511729", "0", "5") },
      { gpuKey: "gpu-b", ...on("3.511728", "1.755864", "5") },
      { gpuKey: "host", ...on("7.023457", "1.755864", "10") },
    ]);
    expect((await rowsOf(billed, T0 + H)).map((r) => r.costMicros)).toEqual([
      $("3.25"),
      $("3.25"),
      $("6.5"),
    ]);
    const estimate = (cost: string, idle: string) => ({
      costMicros: $(cost),
      idleCostMicros: $(idle),
      listCostMicros: null,
      actualSource: null,
      priced: true,
    });
    expect(await rowsOf(billed, T0 + 2 * H)).toEqual([
      { gpuKey: "gpu-a", ...estimate("5", "0") },
      { gpuKey: "gpu-b", ...estimate("5", "2.5") },
      { gpuKey: "host", ...estimate("10", "2.5") },
    ]);
    expect(await rowsOf(unbilled, T0)).toEqual([
      { gpuKey: "gpu-a", ...estimate("1.5", "0") },
      { gpuKey: "gpu-b", ...estimate("1.5", "2.5") },
      { gpuKey: "host", ...estimate("3", "2.5") },
    ]);
    const month = await db.usageHour.aggregate({
      where: { gpuKey: "host" },
      _sum: { costMicros: true },
    });
    expect(month._sum.costMicros).toBe($("26.523457"));
    expect(await actualsStatus(db, MONTH)).toEqual({ hours: 4, actualHours: 2 });
    const audit = await db.auditEvent.findMany({
      where: { action: { startsWith: "pricing.reprice" } },
      orderBy: { at: "asc" },
    });
    expect(audit.map((a) => a.action)).toEqual([
      "pricing.reprice.started",
      "pricing.reprice.reopen",
    ]);
    expect(JSON.parse(audit[1]?.detail ?? "{}")).toMatchObject({
      source: "bill",
      hoursOnActuals: 2,
      oldTotalMicros: $("33").toString(),
      newTotalMicros: $("26.523457").toString(),
    });
  });

  it("a second apply is idempotent: nothing left to change", async () => {
    const before = await db.usageHour.findMany({ orderBy: { id: "asc" } });
    const p = await previewActuals({ month: MONTH, now: NOW }, db);
    expect(p).toMatchObject({
      oldTotalMicros: $("26.523457").toString(),
      newTotalMicros: $("26.523457").toString(),
      hours: { changed: 0, actualAfter: 2 },
      rowsChanged: 0,
    });
    const r = await applyActuals(
      {
        month: MONTH,
        now: NOW,
        by: "finance@example.com",
        expectedNewTotalMicros: p.newTotalMicros,
        reopen: true,
      },
      db,
    );
    expect(r.rowsChanged).toBe(0);
    expect(await db.usageHour.findMany({ orderBy: { id: "asc" } })).toEqual(before);
  });

  it("the costs page's month totals use the actuals and count them", async () => {
    const m = await getCostMonth(MONTH, { client: db, now: NOW, scope: null });
    expect(m.totalMicros).toBe($("26.523457").toString());
    expect(m.actuals).toEqual({
      hours: 4,
      actualHours: 2,
      actualMicros: $("13.523457").toString(),
    });
  });

  it("the reconciliation still compares the list estimate with the bill, and says the month is on actuals", async () => {
    const r = await getReconciliation(db, MONTH);
    const row = r.hosts.find((h) => h.key === billed);
    expect(row?.estimateMicros).toBe($("30").toString());
    expect(row?.effectiveMicros).toBe($("13.523457").toString());
    expect(r.actuals).toEqual({ hours: 4, actualHours: 2 });
  });

  it("a catalogue re-pricing keeps the actuals and re-prices only the estimate beside them", async () => {
    const p = await previewReprice({ month: MONTH, now: NOW }, db);
    expect(p).toMatchObject({ source: "catalogue", hours: { actualAfter: 2 } });
    await applyReprice(
      { month: MONTH, now: NOW, by: "f@x", expectedNewTotalMicros: p.newTotalMicros, reopen: true },
      db,
    );
    const [actual] = (await rowsOf(billed, T0)).filter((r) => r.gpuKey === "host");
    const [listed] = (await rowsOf(billed, T0 + 2 * H)).filter((r) => r.gpuKey === "host");
    // the actual stays the bill's; the estimate beside it is what the catalogue now gives the
    // same host for an hour with the same usage (the estimate hour T0 + 2h)
    expect(actual).toMatchObject({ costMicros: $("7.023457"), actualSource: "bill" });
    expect(actual?.listCostMicros).toBe(listed?.costMicros);
    expect(listed?.actualSource).toBeNull();
    expect(await actualsStatus(db, MONTH)).toEqual({ hours: 4, actualHours: 2 });
  });
});
