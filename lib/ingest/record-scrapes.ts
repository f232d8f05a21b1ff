import "server-only";
import { pushTo } from "../core/group.ts";
import type { Db } from "../db.ts";
import type { ScrapeResult } from "./scrape.ts";
import type { GpuReading, HostSnapshot } from "./snapshot.ts";
import { migProcesses } from "../core/mig.ts";
import { accumulate, holdersOf, meanOf, type MinuteAgg } from "./minute-acc.ts";
import { migKey } from "../core/mig.ts";
import { mergeHolders, type HolderMemory } from "../core/holders.ts";
import { accumulateHealth, healthColumns, type HealthAgg } from "./health-acc.ts";
import { chunked, IN_CHUNK, writeHosts, type HostPlan, type InventoryRow } from "./record-hosts.ts";
import { newWorkState, recordWork, type WorkState } from "./work-hours.ts";

// Writes one collection tick of the embedded source into the store: host state, GPU inventory,
// 1-minute GPU aggregates and the per-host up record the ledger is computed from. Hosts are
// written in batches, one transaction and a few dozen statements each (10,000 GPUs per tick).

export interface RecorderState {
  minutes: Map<string, MinuteAgg>;
  /** gpu uuid (or MIG key) → hostId, for GPUs already in the store */
  knownGpus: Map<string, string>;
  hostMinutes: Map<string, { minuteStart: number; samples: number; upSamples: number }>;
  /** ECC and throttle columns per GPU uuid, for the health alert rules */
  health: Map<string, HealthAgg>;
  /** gpu uuid → its vGPU facts as last written ("mode|licensed"), so a change rewrites the row */
  gpuFacts?: Map<string, string>;
  /** the work counters' last values and the hour rows written (issue 28) */
  work?: WorkState;
}

export function newRecorderState(): RecorderState {
  return { minutes: new Map(), knownGpus: new Map(), hostMinutes: new Map(), health: new Map() };
}

export interface ScrapedHost {
  hostId: string;
  result: ScrapeResult;
}

/** Hosts per transaction: large enough to amortize, small enough to hold SQLite's lock briefly. */
export const BATCH_HOSTS = 200;

type MinuteRow = ReturnType<typeof minuteRow>;

interface Plan extends HostPlan {
  url: string;
  hostMinute: { samples: number; upSamples: number };
  minutes: MinuteRow[];
}

function minuteRow(hostId: string, uuid: string, agg: MinuteAgg, health?: HealthAgg) {
  const big = (v: number | null) => (v === null ? null : BigInt(Math.round(v)));
  return {
    hostId,
    gpuUuid: uuid,
    minuteStart: new Date(agg.minuteStart),
    samples: agg.samples,
    util: meanOf(agg.util),
    memUtil: meanOf(agg.memUtil),
    memUsedBytes: big(agg.memUsedBytes),
    memTotalBytes: big(agg.memTotalBytes),
    powerWatts: meanOf(agg.powerWatts),
    tempCelsius: meanOf(agg.tempCelsius),
    smClockHz: meanOf(agg.smClockHz),
    smActive: meanOf(agg.smActive),
    tensorActive: meanOf(agg.tensorActive),
    processes: agg.processes,
    holders: jsonOrNull(holdersOf(agg)),
    // MIG rows carry no health columns: null, as a row created without them
    ...healthColumns(health),
  };
}

function jsonOrNull(v: unknown[] | null): string | null {
  return v === null ? null : JSON.stringify(v);
}

/** Each GPU's (or MIG slice's) holders in one scrape, merged by holder. */
function holdersByUnit(snap: HostSnapshot): Map<string, HolderMemory[]> {
  const raw = new Map<string, HolderMemory[]>();
  for (const p of snap.processes) {
    if (!p.holder) continue;
    const unit = p.gpuInstanceId === undefined ? p.gpuUuid : migKey(p.gpuUuid, p.gpuInstanceId);
    pushTo(raw, unit, { holder: p.holder, memBytes: p.usedMemoryBytes });
  }
  return new Map([...raw].map(([k, v]) => [k, mergeHolders(v)]));
}

function inventory(state: RecorderState, hostId: string, r: ScrapeResult): InventoryRow[] {
  if (!r.ok) return [];
  const snap = r.snapshot;
  const rows: InventoryRow[] = [];
  for (const g of snap.gpus) {
    // a known GPU is written again only when its vGPU facts changed (a licence lapses, say)
    const facts = gpuFactsKey(g);
    if (state.knownGpus.get(g.uuid) === hostId && (state.gpuFacts?.get(g.uuid) ?? facts) === facts)
      continue;
    rows.push({
      uuid: g.uuid,
      hostId,
      index: g.index,
      name: g.name || "unknown",
      memoryTotalBytes: BigInt(Math.round(g.memTotalBytes ?? 0)),
      migMode: g.migMode,
      virtualizationMode: g.virtualizationMode ?? null,
      vgpuLicensed: g.vgpuLicensed ?? null,
    });
  }
  for (const m of snap.migs) {
    if (state.knownGpus.get(m.key) === hostId) continue;
    const parent = snap.gpus.find((g) => g.uuid === m.parentUuid);
    rows.push({
      uuid: m.key,
      hostId,
      index: parent?.index ?? 0,
      name: `${parent?.name ?? "GPU"} MIG ${m.profile}`,
      memoryTotalBytes: BigInt(Math.round(m.memTotalBytes ?? 0)),
      migMode: true,
      parentUuid: m.parentUuid,
      migProfile: m.profile,
      gpuInstanceId: m.gpuInstanceId,
    });
  }
  return rows;
}

function gpuFactsKey(g: GpuReading): string {
  return `${g.virtualizationMode ?? ""}|${g.vgpuLicensed ?? ""}`;
}

/** Folds one scrape into the in-memory aggregates and returns what to write for its host. */
function plan(state: RecorderState, { hostId, result: r }: ScrapedHost, at: number): Plan {
  const minuteStart = at - (at % 60_000);
  const prev = state.hostMinutes.get(hostId);
  const cur =
    prev && prev.minuteStart === minuteStart ? prev : { minuteStart, samples: 0, upSamples: 0 };
  cur.samples += 1;
  if (r.ok) cur.upSamples += 1;
  state.hostMinutes.set(hostId, cur);
  const base = {
    hostId,
    url: r.url,
    hostMinute: { samples: cur.samples, upSamples: cur.upSamples },
    inventory: inventory(state, hostId, r),
  };
  if (!r.ok) return { ...base, down: r.error, minutes: [], seen: [] };
  const snap = r.snapshot;
  const minutes: MinuteRow[] = [];
  const procsByGpu = new Map<string, number>();
  for (const p of snap.processes) procsByGpu.set(p.gpuUuid, (procsByGpu.get(p.gpuUuid) ?? 0) + 1);
  const holders = holdersByUnit(snap);
  for (const g of snap.gpus) {
    const procs = g.processes ?? procsByGpu.get(g.uuid) ?? 0;
    const agg = accumulate(state.minutes.get(g.uuid), at, g, procs, holders.get(g.uuid));
    state.minutes.set(g.uuid, agg);
    const health = accumulateHealth(state.health.get(g.uuid), at, g);
    state.health.set(g.uuid, health);
    minutes.push(minuteRow(hostId, g.uuid, agg, health));
  }
  for (const m of snap.migs) {
    const agg = accumulate(
      state.minutes.get(m.key),
      at,
      m,
      migProcesses(m.memUsedBytes),
      holders.get(m.key),
    );
    state.minutes.set(m.key, agg);
    minutes.push(minuteRow(hostId, m.key, agg));
  }
  return {
    ...base,
    up: snap,
    minutes,
    seen: [...snap.gpus.map((g) => g.uuid), ...snap.migs.map((m) => m.key)],
  };
}

async function writeBatch(db: Db, state: RecorderState, plans: Plan[], now: Date) {
  const minuteStart = new Date(now.getTime() - (now.getTime() % 60_000));
  await db.$transaction(
    async (tx) => {
      // Minute rows are replaced whole: delete, then insert in bulk.
      await tx.hostMinute.deleteMany({
        where: { minuteStart, hostId: { in: plans.map((p) => p.hostId) } },
      });
      await tx.hostMinute.createMany({
        data: plans.map((p) => ({ hostId: p.hostId, minuteStart, ...p.hostMinute })),
      });
      await writeHosts(tx, plans, now);
      const minutes = plans.flatMap((p) => p.minutes);
      for (const part of chunked(minutes, IN_CHUNK)) {
        await tx.gpuMinute.deleteMany({
          where: { minuteStart, gpuUuid: { in: part.map((m) => m.gpuUuid) } },
        });
      }
      if (minutes.length > 0) await tx.gpuMinute.createMany({ data: minutes });
    },
    { maxWait: 30_000, timeout: 300_000 },
  );
  state.gpuFacts ??= new Map();
  for (const p of plans) {
    for (const g of p.inventory) state.knownGpus.set(g.uuid, p.hostId);
    for (const g of p.up?.gpus ?? []) state.gpuFacts.set(g.uuid, gpuFactsKey(g));
  }
}

/**
 * Records one tick's scrape results. A batch that fails (a host deleted meanwhile, a GPU uuid
 * reported by two hosts) is retried host by host, so one bad host never loses the others' data.
 */
export async function recordScrapes(
  db: Db,
  state: RecorderState,
  scraped: readonly ScrapedHost[],
  now: Date,
  log: (msg: string) => void = () => {},
): Promise<void> {
  const plans = scraped.map((s) => plan(state, s, now.getTime()));
  for (const batch of chunked(plans, BATCH_HOSTS)) {
    try {
      await writeBatch(db, state, batch, now);
    } catch (e) {
      if (batch.length === 1) log(`record ${batch[0]?.url} failed: ${(e as Error).message}`);
      else {
        for (const p of batch) {
          await writeBatch(db, state, [p], now).catch((err: unknown) =>
            log(`record ${p.url} failed: ${(err as Error).message}`),
          );
        }
      }
    }
  }
  await recordWork(db, (state.work ??= newWorkState()), scraped, now, log);
}
