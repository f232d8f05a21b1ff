import "server-only";
import { HOUR_MS } from "../core/time.ts";
import { buildFleet } from "../../exporter/sim/fleet.ts";
import { sampleHost } from "../../exporter/sim/sample.ts";
import type { SimFleet, SimHostSpec } from "../../exporter/sim/types.ts";
import { computeHostHour, toUsageHourData } from "../ledger/ledger-math.ts";
import { holderShares } from "../ledger/holder-split.ts";
import { holderRowsOf } from "../ledger/job.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { Db } from "../db.ts";
import { migKey, migProcesses } from "../core/mig.ts";
import { loadPriceRows } from "../pricing/catalogue-db.ts";
import { lookupPrice } from "../pricing/lookup.ts";
import { installShippedCatalogue } from "../pricing/seed.ts";
import { hostTimeline, toHostSample } from "./timeline.ts";
import { DemoHolders } from "./holders.ts";
import { seedDemoBudgets } from "./budgets.ts";
import { seedDemoAlerting } from "./alert-defaults.ts";
import { seedDemoPolicies } from "./policies.ts";
import { bulkInsert } from "./bulk.ts";
import { importBill } from "../billing/import.ts";
import { addMonths, monthOf } from "../core/months.ts";
import { demoBillRows } from "./billing.ts";
import { seedDemoTrial, seedDemoWork } from "./work.ts";
import { seedDemoSpotHistory } from "./spot-history.ts";
import { rebuildUsageDays } from "../ledger/usage-days.ts";

// Seeds the demo on an empty store: the simulated fleet's hosts and GPUs, 60 days of ledger
// history and 7 days of chart minutes, computed from the same simulator the live exporter serves.
// Later starts match the stored demo hosts to the exporter instead (./reconcile.ts).

const MIB = 1024n * 1024n;
export const DEMO_SEED = 42;

export interface SeedOptions {
  exporterBase: string;
  /** the store's URL, for bulk inserts that bypass Prisma on SQLite */
  databaseUrl: string;
  hosts: number;
  now: Date;
  historyDays?: number;
  chartDays?: number;
  log?: (msg: string) => void;
}

/** A demo host's scrape target: the exporter's per-host path for that simulated host. */
export function demoTarget(exporterBase: string, simId: number): string {
  return `${exporterBase.replace(/\/+$/, "")}/hosts/${simId}/metrics`;
}

/** The host's labels as the exporter reports them (the owner is a column of its own). */
export function demoLabels(h: SimHostSpec): Record<string, string> {
  return Object.fromEntries(Object.entries(h.labels).filter(([k]) => k !== "owner"));
}

/** The GPU rows (and MIG slice rows) of a simulated host. */
export function demoGpuRows(
  h: SimHostSpec,
  hostId: string,
  firstSeen: Date,
): Prisma.GpuCreateManyInput[] {
  const gpus: Prisma.GpuCreateManyInput[] = [];
  for (const g of h.gpus) {
    const base = { hostId, index: g.index, firstSeen, migMode: g.profile === "mig" };
    gpus.push({
      ...base,
      uuid: g.uuid,
      name: g.name,
      memoryTotalBytes: BigInt(g.memoryTotalMiB) * MIB,
    });
    for (const m of g.mig ?? []) {
      gpus.push({
        ...base,
        uuid: migKey(g.uuid, m.gpuInstanceId),
        name: `${g.name} MIG ${m.profile}`,
        memoryTotalBytes: BigInt(m.memoryTotalMiB) * MIB,
        parentUuid: g.uuid,
        migProfile: m.profile,
        gpuInstanceId: m.gpuInstanceId,
      });
    }
  }
  return gpus;
}

/** Creates one demo host and its GPUs; returns the host's id. */
export async function createDemoHost(
  db: Db,
  h: SimHostSpec,
  exporterBase: string,
  firstSeen: Date,
): Promise<string> {
  const host = await db.host.create({
    data: {
      hostname: h.hostname,
      target: demoTarget(exporterBase, h.id),
      provider: h.provider,
      instanceType: h.instanceType,
      region: h.region,
      pricingModel: h.pricingModel,
      team: h.team,
      project: h.project,
      owner: h.labels.owner ?? null,
      instanceId: h.instanceId ?? null,
      zone: h.zone ?? null,
      labels: JSON.stringify(demoLabels(h)),
      origin: "demo",
      firstSeen,
    },
  });
  await db.gpu.createMany({ data: demoGpuRows(h, host.id, firstSeen) });
  return host.id;
}

/**
 * The seeded windows: ledger hours up to the last closed hour, chart minutes up to now. In the
 * first hour of a month the demo also writes that (still open) hour from the simulator, so the
 * month shown by default is never empty; the live ledger then resumes after it.
 */
export interface DemoWindow {
  now: number;
  lastClosed: number;
  historyStart: number;
  chartStart: number;
}

export function demoWindow(
  opts: Pick<SeedOptions, "now" | "historyDays" | "chartDays">,
): DemoWindow {
  const now = opts.now.getTime();
  const hourStart = now - (now % HOUR_MS);
  const current = new Date(hourStart);
  const monthStart = Date.UTC(current.getUTCFullYear(), current.getUTCMonth(), 1);
  const lastClosed = hourStart - HOUR_MS < monthStart ? hourStart : hourStart - HOUR_MS;
  return {
    now,
    lastClosed,
    historyStart: lastClosed - (opts.historyDays ?? 60) * 24 * HOUR_MS,
    chartStart: now - (opts.chartDays ?? 7) * 24 * HOUR_MS,
  };
}

/**
 * One host's history: its ledger hours, who held its GPUs in each (UsageHourHolder rows, split as
 * the ledger job splits them) and chart minutes over the window, from the simulator.
 */
export async function backfillDemoHost(
  db: Db,
  databaseUrl: string,
  fleet: SimFleet,
  h: SimHostSpec,
  hostId: string,
  prices: Awaited<ReturnType<typeof loadPriceRows>>,
  w: DemoWindow,
): Promise<void> {
  const { historyStart, lastClosed } = w;
  const step = 5 * 60_000;
  const holders = new DemoHolders(fleet, h);
  const from = historyStart - 40 * 60_000;
  const timeline = await hostTimeline(fleet, h, from, lastClosed + HOUR_MS, step, holders);
  const ledger: Prisma.UsageHourCreateManyInput[] = [];
  const held: Prisma.UsageHourHolderCreateManyInput[] = [];
  let cursor = 0;
  for (let hour = historyStart; hour <= lastClosed; hour += HOUR_MS) {
    while ((timeline[cursor]?.t.getTime() ?? Infinity) < hour - 35 * 60_000) cursor++;
    const window = [];
    for (let i = cursor; i < timeline.length; i++) {
      const s = timeline[i];
      if (!s || s.t.getTime() >= hour + HOUR_MS) break;
      window.push(s);
    }
    const price = lookupPrice(prices, { ...h, at: new Date(hour) });
    const hourStart = new Date(hour);
    const intervalSeconds = 300;
    const rows = computeHostHour({ hourStart, host: h, price, samples: window, intervalSeconds });
    for (const r of rows) ledger.push(toUsageHourData(r, hostId, "demo-backfill"));
    const shares = holderShares(rows, window, hourStart, intervalSeconds);
    held.push(...holderRowsOf({ rows, holders: shares }, hostId));
  }
  await bulkInsert(db, databaseUrl, "UsageHour", ledger);
  await bulkInsert(db, databaseUrl, "UsageHourHolder", held);
  await seedMinutes(db, databaseUrl, fleet, h, hostId, w.chartStart, w.now, holders);
}

export async function seedDemo(db: Db, opts: SeedOptions): Promise<boolean> {
  const log = opts.log ?? (() => {});
  if ((await db.host.count()) > 0) return false;
  const w = demoWindow(opts);
  await installShippedCatalogue(db);
  const fleet = buildFleet({ seed: DEMO_SEED, hosts: opts.hosts });
  // the spot hosts' market prices first, so the ledger prices their hours from them; the bill
  // keeps its own day-to-day spot prices from the catalogue (what reconciliation explains)
  const catalogue = await loadPriceRows(db);
  const spotStarted = Date.now();
  const spot = await seedDemoSpotHistory(db, fleet, catalogue, w.historyStart - HOUR_MS, w.now);
  const prices = await loadPriceRows(db);
  const spotSeconds = ((Date.now() - spotStarted) / 1000).toFixed(1);
  log(`spot price history (synthetic): ${spot} hourly prices (${spotSeconds} s)`);
  const ids = new Map<number, string>();
  for (const h of fleet.hosts)
    ids.set(h.id, await createDemoHost(db, h, opts.exporterBase, new Date(w.historyStart)));
  log(`${fleet.hosts.length} hosts, ${fleet.hosts.reduce((n, h) => n + h.gpus.length, 0)} GPUs`);

  for (const h of fleet.hosts) {
    await backfillDemoHost(db, opts.databaseUrl, fleet, h, ids.get(h.id) ?? "", prices, w);
  }
  // the backfill bulk-loads the ledger past lib/ledger's writer: roll its days up as it would
  await rebuildUsageDays(db);
  await db.jobState.upsert({
    where: { name: "ledger.lastHour" },
    create: { name: "ledger.lastHour", value: new Date(w.lastClosed).toISOString() },
    update: { value: new Date(w.lastClosed).toISOString() },
  });
  // work counters of the inference hosts (35 days), then the finished trial reported on them
  const workFrom = Math.max(w.historyStart, w.lastClosed - 35 * 24 * HOUR_MS);
  const workRows = await seedDemoWork(db, fleet, ids, workFrom, w.lastClosed + HOUR_MS);
  const trial = await seedDemoTrial(db, fleet, ids, w.lastClosed, new Date(w.now));
  log(`work counters: ${workRows} hour rows; trial: ${trial?.name ?? "none"}`);
  await seedDemoBill(db, fleet, catalogue, new Date(w.now), log);
  await seedDemoBudgets(db, new Date(w.now));
  await seedDemoAlerting(db);
  await seedDemoPolicies(db);
  log(
    `ledger backfilled from ${new Date(w.historyStart).toISOString()} to ${new Date(w.lastClosed).toISOString()}`,
  );
  return true;
}

/** Imports the demo's cloud bill for last month, so the reconciliation page has data. */
export async function seedDemoBill(
  db: Db,
  fleet: SimFleet,
  prices: Awaited<ReturnType<typeof loadPriceRows>>,
  now: Date,
  log: (msg: string) => void,
): Promise<void> {
  const month = addMonths(monthOf(now), -1);
  const started = Date.now();
  const r = await importBill(db, demoBillRows(fleet, prices, month), {
    file: `demo-focus-${month}.csv`,
    by: "demo",
    dryRun: false,
    rates: [],
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  log(`cloud bill for ${month}: ${r.rowsKept} rows, ${r.lines} billed hours (${seconds} s)`);
}

/** Chart minutes: every 5 minutes over the chart window, every minute over the last two hours. */
async function seedMinutes(
  db: Db,
  databaseUrl: string,
  fleet: SimFleet,
  h: SimHostSpec,
  hostId: string,
  from: number,
  now: number,
  holders: DemoHolders,
) {
  const fine = now - (now % HOUR_MS) - HOUR_MS;
  const times: number[] = [];
  for (let t = from - (from % 300_000); t < fine; t += 300_000) times.push(t);
  for (let t = fine; t < now - (now % 60_000); t += 60_000) times.push(t);
  const gpuRows: Prisma.GpuMinuteCreateManyInput[] = [];
  const hostRows: Prisma.HostMinuteCreateManyInput[] = [];
  const sampled = times.map((t) => ({
    at: new Date(t),
    samples: sampleHost(fleet, h, new Date(t)),
  }));
  await holders.learn(sampled.flatMap((x) => x.samples.flatMap((s) => s.processes)));
  for (const { at: minuteStart, samples } of sampled) {
    hostRows.push({ hostId, minuteStart, samples: 1, upSamples: 1 });
    // who held each GPU and slice this minute, as a scrape would have recorded it (JSON or null)
    const heldBy = new Map(
      toHostSample(h, minuteStart, samples, holders).gpus.map((g) => [
        g.uuid,
        g.holders && g.holders.length > 0 ? JSON.stringify(g.holders) : null,
      ]),
    );
    h.gpus.forEach((spec, i) => {
      const s = samples[i];
      if (!s || !s.reporting) return;
      const base = { hostId, minuteStart, samples: 1 };
      gpuRows.push({
        ...base,
        gpuUuid: spec.uuid,
        util: s.utilizationGpu === null ? null : s.utilizationGpu / 100,
        memUtil: s.utilizationMemory === null ? null : s.utilizationMemory / 100,
        memUsedBytes: BigInt(s.memoryUsedMiB) * MIB,
        memTotalBytes: BigInt(spec.memoryTotalMiB) * MIB,
        powerWatts: s.powerDrawW,
        tempCelsius: s.temperatureC,
        smClockHz: s.smClockMHz * 1e6,
        processes: s.processes.filter((p) => p.gpuUuid === spec.uuid).length,
        holders: heldBy.get(spec.uuid) ?? null,
      });
      for (const m of spec.mig ?? []) {
        const used = BigInt(s.migMemoryUsedMiB?.[m.gpuInstanceId] ?? 0) * MIB;
        gpuRows.push({
          ...base,
          gpuUuid: migKey(spec.uuid, m.gpuInstanceId),
          memUsedBytes: used,
          memTotalBytes: BigInt(m.memoryTotalMiB) * MIB,
          processes: migProcesses(Number(used)),
          holders: heldBy.get(migKey(spec.uuid, m.gpuInstanceId)) ?? null,
        });
      }
    });
  }
  await bulkInsert(db, databaseUrl, "HostMinute", hostRows);
  await bulkInsert(db, databaseUrl, "GpuMinute", gpuRows);
}
