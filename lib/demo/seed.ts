import "server-only";
import { buildFleet } from "../../exporter/sim/fleet.ts";
import { sampleHost } from "../../exporter/sim/sample.ts";
import type { SimFleet, SimHostSpec } from "../../exporter/sim/types.ts";
import { computeHostHour, toUsageHourData } from "../cost/ledger-math.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { Db } from "../db.ts";
import { migKey, migProcesses } from "../metrics/snapshot.ts";
import { loadPriceRows } from "../pricing/catalogue-db.ts";
import { lookupPrice } from "../pricing/lookup.ts";
import { installShippedCatalogue } from "../pricing/seed.ts";
import { hostTimeline } from "./timeline.ts";
import { seedDemoBudgets } from "./budgets.ts";
import { seedDemoAlerting } from "./alert-defaults.ts";
import { bulkInsert } from "./bulk.ts";

// Seeds the demo on an empty store: the simulated fleet's hosts and GPUs, 60 days of ledger
// history and 7 days of chart minutes, computed from the same simulator the live exporter serves.

const HOUR = 3_600_000;
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

async function createInventory(db: Db, fleet: SimFleet, opts: SeedOptions, firstSeen: Date) {
  const ids = new Map<number, string>();
  for (const h of fleet.hosts) {
    const { owner, ...labels } = h.labels;
    const host = await db.host.create({
      data: {
        hostname: h.hostname,
        target: `${opts.exporterBase}/hosts/${h.id}/metrics`,
        provider: h.provider,
        instanceType: h.instanceType,
        region: h.region,
        pricingModel: h.pricingModel,
        team: h.team,
        project: h.project,
        owner: owner ?? null,
        labels: JSON.stringify(labels),
        origin: "demo",
        firstSeen,
      },
    });
    ids.set(h.id, host.id);
    const gpus: Prisma.GpuCreateManyInput[] = [];
    for (const g of h.gpus) {
      const base = { hostId: host.id, index: g.index, firstSeen, migMode: g.profile === "mig" };
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
    await db.gpu.createMany({ data: gpus });
  }
  return ids;
}

export async function seedDemo(db: Db, opts: SeedOptions): Promise<boolean> {
  const log = opts.log ?? (() => {});
  if ((await db.host.count()) > 0) return false;
  const now = opts.now.getTime();
  const lastClosed = now - (now % HOUR) - HOUR;
  const historyStart = lastClosed - (opts.historyDays ?? 60) * 24 * HOUR;
  const chartStart = now - (opts.chartDays ?? 7) * 24 * HOUR;
  await installShippedCatalogue(db);
  const prices = await loadPriceRows(db);
  const fleet = buildFleet({ seed: DEMO_SEED, hosts: opts.hosts });
  const ids = await createInventory(db, fleet, opts, new Date(historyStart));
  log(`${fleet.hosts.length} hosts, ${fleet.hosts.reduce((n, h) => n + h.gpus.length, 0)} GPUs`);

  for (const h of fleet.hosts) {
    const hostId = ids.get(h.id) ?? "";
    const step = 5 * 60_000;
    const timeline = hostTimeline(fleet, h, historyStart - 40 * 60_000, lastClosed + HOUR, step);
    const ledger: Prisma.UsageHourCreateManyInput[] = [];
    let cursor = 0;
    for (let hour = historyStart; hour <= lastClosed; hour += HOUR) {
      while ((timeline[cursor]?.t.getTime() ?? Infinity) < hour - 35 * 60_000) cursor++;
      const window = [];
      for (let i = cursor; i < timeline.length; i++) {
        const s = timeline[i];
        if (!s || s.t.getTime() >= hour + HOUR) break;
        window.push(s);
      }
      const price = lookupPrice(prices, { ...h, at: new Date(hour) });
      const rows = computeHostHour({
        hourStart: new Date(hour),
        host: h,
        price,
        samples: window,
        intervalSeconds: 300,
      });
      for (const r of rows) ledger.push(toUsageHourData(r, hostId, "demo-backfill"));
    }
    await bulkInsert(db, opts.databaseUrl, "UsageHour", ledger);
    await seedMinutes(db, opts.databaseUrl, fleet, h, hostId, chartStart, now);
  }
  await db.jobState.upsert({
    where: { name: "ledger.lastHour" },
    create: { name: "ledger.lastHour", value: new Date(lastClosed).toISOString() },
    update: { value: new Date(lastClosed).toISOString() },
  });
  await seedDemoBudgets(db, new Date(now));
  await seedDemoAlerting(db);
  log(
    `ledger backfilled from ${new Date(historyStart).toISOString()} to ${new Date(lastClosed).toISOString()}`,
  );
  return true;
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
) {
  const fine = now - (now % HOUR) - HOUR;
  const times: number[] = [];
  for (let t = from - (from % 300_000); t < fine; t += 300_000) times.push(t);
  for (let t = fine; t < now - (now % 60_000); t += 60_000) times.push(t);
  const gpuRows: Prisma.GpuMinuteCreateManyInput[] = [];
  const hostRows: Prisma.HostMinuteCreateManyInput[] = [];
  for (const t of times) {
    const minuteStart = new Date(t);
    hostRows.push({ hostId, minuteStart, samples: 1, upSamples: 1 });
    const samples = sampleHost(fleet, h, minuteStart);
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
      });
      for (const m of spec.mig ?? []) {
        const used = BigInt(s.migMemoryUsedMiB?.[m.gpuInstanceId] ?? 0) * MIB;
        gpuRows.push({
          ...base,
          gpuUuid: migKey(spec.uuid, m.gpuInstanceId),
          memUsedBytes: used,
          memTotalBytes: BigInt(m.memoryTotalMiB) * MIB,
          processes: migProcesses(Number(used)),
        });
      }
    });
  }
  await bulkInsert(db, databaseUrl, "HostMinute", hostRows);
  await bulkInsert(db, databaseUrl, "GpuMinute", gpuRows);
}
