import "../testing/no-egress.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import { parseHolderMemories } from "../core/holders.ts";
import { getHolderSpend, NOT_HELD } from "../spend/by-holder.ts";
import { getMonthSpend } from "../spend/get-month-spend.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { seedDemo } from "./seed.ts";

// A freshly seeded demo store (issue 24): the backfilled ledger hours carry who held each GPU, as
// the ledger job writes them for live hours. Busy GPUs are held, idle-but-held ones too, every
// holder share fits inside its GPU-hour, and the by-holder table adds up to the month's total.

// pinned mid-month, so one day of history stays inside one month
const NOW = new Date("2026-11-15T12:20:00Z");
let db: Db;

beforeAll(async () => {
  const t = makeTestDb();
  db = t.db;
  await seedDemo(db, {
    exporterBase: "http://127.0.0.1:9",
    databaseUrl: t.url,
    hosts: 24,
    now: NOW,
    historyDays: 1,
    chartDays: 1,
  });
}, 300_000);
afterAll(async () => {
  await db.$disconnect();
});

const key = (r: { hourStart: Date; hostId: string; gpuKey: string }) =>
  `${r.hourStart.toISOString()}|${r.hostId}|${r.gpuKey}`;

describe("the demo's backfilled holders", () => {
  it("name the simulator's users, pods and jobs on busy GPUs and on idle ones they hold", async () => {
    const [gpuRows, holderRows] = await Promise.all([
      db.usageHour.findMany({ where: { gpuKey: { not: "host" } } }),
      db.usageHourHolder.findMany(),
    ]);
    expect(holderRows.length).toBeGreaterThan(0);
    expect(new Set(holderRows.map((r) => r.user))).toEqual(
      new Set(["alice", "bob", "carol", "dave", "erin", "root", "1000"]),
    );
    expect(new Set(holderRows.map((r) => r.kind))).toEqual(
      new Set(["process", "container", "pod", "job"]),
    );
    const held = new Set(holderRows.map(key));
    // a GPU busy over the hour always ran a process, so it always has a holder
    const busy = gpuRows.filter((r) => r.parentKey === null && (r.utilMean ?? 0) >= 0.05);
    expect(busy.length).toBeGreaterThan(100);
    expect(busy.filter((r) => !held.has(key(r)))).toEqual([]);
    // who holds idle GPUs: held-idle GPU-hours carry idle seconds and idle cost on their holders
    const idleHeld = holderRows.filter((r) => r.idleSeconds > 0 && r.idleCostMicros > 0n);
    expect(idleHeld.length).toBeGreaterThan(10);
    // and an empty GPU is held by nobody
    const empty = gpuRows.filter(
      (r) => r.parentKey === null && r.idleSeconds === r.upSeconds && r.idleHeldSeconds === 0,
    );
    expect(empty.length).toBeGreaterThan(0);
    expect(empty.filter((r) => held.has(key(r)))).toEqual([]);
  });

  it("split each GPU-hour without exceeding it, in full where a holder held it all hour", async () => {
    const [gpuRows, holderRows] = await Promise.all([
      db.usageHour.findMany({ where: { gpuKey: { not: "host" } } }),
      db.usageHourHolder.findMany(),
    ]);
    const byRow = new Map(gpuRows.map((r) => [key(r), r]));
    const sums = new Map<string, { cost: bigint; idle: bigint; secs: number; ppm: number }>();
    for (const h of holderRows) {
      const s = sums.get(key(h)) ?? { cost: 0n, idle: 0n, secs: 0, ppm: 0 };
      s.cost += h.costMicros;
      s.idle += h.idleCostMicros;
      s.secs += h.idleSeconds;
      s.ppm += h.sharePpm;
      sums.set(key(h), s);
    }
    let whole = 0;
    for (const [k, s] of sums) {
      const row = byRow.get(k);
      if (!row) throw new Error(`holder rows without their GPU-hour: ${k}`);
      expect(s.cost).toBeLessThanOrEqual(row.costMicros);
      expect(s.idle).toBeLessThanOrEqual(row.idleCostMicros);
      expect(s.secs).toBeLessThanOrEqual(row.idleSeconds);
      if (s.ppm >= 999_999) {
        expect(s.cost).toBe(row.costMicros);
        whole++;
      }
    }
    expect(whole).toBeGreaterThan(100);
  });

  it("add up to the month's total in the by-holder table, most of it held", async () => {
    const month = await getMonthSpend({ client: db, now: NOW, scope: null });
    const table = await getHolderSpend("2026-11", { client: db, scope: null });
    expect(table.totalMicros).toBe(month.spendMicros);
    const sum = table.rows.reduce((s, r) => s + BigInt(r.costMicros), 0n);
    expect(sum).toBe(BigInt(month.spendMicros));
    const notHeld = table.rows.find((r) => !r.held);
    expect(notHeld?.holder).toBe(NOT_HELD);
    expect(BigInt(notHeld?.costMicros ?? "0") * 2n).toBeLessThan(BigInt(month.spendMicros));
    const alice = table.rows.find((r) => r.holder === "alice");
    expect(BigInt(alice?.costMicros ?? "0")).toBeGreaterThan(0n);
  });

  it("are in the chart minutes too, so the live ledger's first hour reads them", async () => {
    const minutes = await db.gpuMinute.findMany({ where: { holders: { not: null } } });
    expect(minutes.length).toBeGreaterThan(0);
    const users = new Set(
      minutes.flatMap((m) => parseHolderMemories(m.holders).map((h) => h.holder.user)),
    );
    expect(users.has("alice")).toBe(true);
  });
});
