import "server-only";
import type { Db } from "../db.ts";
import type { ScrapeResult } from "../metrics/scrape.ts";
import { migProcesses, type HostSnapshot } from "../metrics/snapshot.ts";
import { accumulate, meanOf, type MinuteAgg } from "./minute-acc.ts";
import { accumulateHealth, healthColumns, type HealthAgg } from "../alerts/health-acc.ts";

// Writes one collection tick of the embedded source into the store: host state, GPU inventory,
// 1-minute GPU aggregates and the per-host up record the ledger is computed from.

export interface RecorderState {
  minutes: Map<string, MinuteAgg>;
  /** gpu uuid (or MIG key) → hostId, for GPUs already in the store */
  knownGpus: Map<string, string>;
  hostMinutes: Map<string, { minuteStart: number; samples: number; upSamples: number }>;
  /** ECC and throttle columns per GPU uuid, for the health alert rules */
  health: Map<string, HealthAgg>;
}

export function newRecorderState(): RecorderState {
  return { minutes: new Map(), knownGpus: new Map(), hostMinutes: new Map(), health: new Map() };
}

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

async function upsertInventory(
  tx: Tx,
  state: RecorderState,
  hostId: string,
  snap: HostSnapshot,
  now: Date,
) {
  for (const g of snap.gpus) {
    if (state.knownGpus.get(g.uuid) === hostId) continue;
    const data = {
      hostId,
      index: g.index,
      name: g.name || "unknown",
      memoryTotalBytes: BigInt(Math.round(g.memTotalBytes ?? 0)),
      migMode: g.migMode,
      lastSeen: now,
    };
    await tx.gpu.upsert({
      where: { uuid: g.uuid },
      create: { uuid: g.uuid, ...data },
      update: data,
    });
    state.knownGpus.set(g.uuid, hostId);
  }
  for (const m of snap.migs) {
    if (state.knownGpus.get(m.key) === hostId) continue;
    const parent = snap.gpus.find((g) => g.uuid === m.parentUuid);
    const data = {
      hostId,
      index: parent?.index ?? 0,
      name: `${parent?.name ?? "GPU"} MIG ${m.profile}`,
      memoryTotalBytes: BigInt(Math.round(m.memTotalBytes ?? 0)),
      migMode: true,
      parentUuid: m.parentUuid,
      migProfile: m.profile,
      gpuInstanceId: m.gpuInstanceId,
      lastSeen: now,
    };
    await tx.gpu.upsert({ where: { uuid: m.key }, create: { uuid: m.key, ...data }, update: data });
    state.knownGpus.set(m.key, hostId);
  }
}

async function writeMinute(
  tx: Tx,
  hostId: string,
  uuid: string,
  agg: MinuteAgg,
  health?: HealthAgg,
) {
  const big = (v: number | null) => (v === null ? null : BigInt(Math.round(v)));
  const data = {
    samples: agg.samples,
    util: meanOf(agg.util),
    memUtil: meanOf(agg.memUtil),
    memUsedBytes: big(agg.memUsedBytes),
    memTotalBytes: big(agg.memTotalBytes),
    powerWatts: meanOf(agg.powerWatts),
    tempCelsius: meanOf(agg.tempCelsius),
    smClockHz: meanOf(agg.smClockHz),
    processes: agg.processes,
    ...(health ? healthColumns(health) : {}),
  };
  const minuteStart = new Date(agg.minuteStart);
  await tx.gpuMinute.upsert({
    where: { gpuUuid_minuteStart: { gpuUuid: uuid, minuteStart } },
    create: { hostId, gpuUuid: uuid, minuteStart, ...data },
    update: data,
  });
}

async function recordHostMinute(
  tx: Tx,
  state: RecorderState,
  hostId: string,
  at: number,
  up: boolean,
) {
  const minuteStart = at - (at % 60_000);
  const prev = state.hostMinutes.get(hostId);
  const cur =
    prev && prev.minuteStart === minuteStart ? prev : { minuteStart, samples: 0, upSamples: 0 };
  cur.samples += 1;
  if (up) cur.upSamples += 1;
  state.hostMinutes.set(hostId, cur);
  const when = new Date(minuteStart);
  await tx.hostMinute.upsert({
    where: { hostId_minuteStart: { hostId, minuteStart: when } },
    create: { hostId, minuteStart: when, samples: cur.samples, upSamples: cur.upSamples },
    update: { samples: cur.samples, upSamples: cur.upSamples },
  });
}

function attribution(snap: HostSnapshot) {
  const info = snap.info;
  if (!info) return {};
  return {
    provider: info.provider,
    instanceType: info.instanceType,
    region: info.region,
    pricingModel: info.pricingModel,
    ...(info.team ? { team: info.team } : {}),
    ...(info.project ? { project: info.project } : {}),
    ...(info.owner ? { owner: info.owner } : {}),
    labels: JSON.stringify(info.labels),
  };
}

/** Records one scrape result for the host whose target it is. */
export async function recordScrape(
  db: Db,
  state: RecorderState,
  hostId: string,
  r: ScrapeResult,
  now: Date,
) {
  const at = now.getTime();
  await db.$transaction(async (tx) => {
    await recordHostMinute(tx, state, hostId, at, r.ok);
    if (!r.ok) {
      await tx.host.update({ where: { id: hostId }, data: { state: "down", lastError: r.error } });
      return;
    }
    const snap = r.snapshot;
    const name = snap.info?.hostname;
    const taken = name
      ? await tx.host.findUnique({ where: { hostname: name }, select: { id: true } })
      : null;
    const rename = name && (!taken || taken.id === hostId) ? { hostname: name } : {};
    await tx.host.update({
      where: { id: hostId },
      data: {
        state: "up",
        lastSeen: now,
        lastError: snap.sourceOk ? null : "exporter reports its GPU source failing",
        processes: JSON.stringify(snap.processes),
        ...attribution(snap),
        ...rename,
      },
    });
    await upsertInventory(tx, state, hostId, snap, now);
    const seen = [...snap.gpus.map((g) => g.uuid), ...snap.migs.map((m) => m.key)];
    if (seen.length > 0) {
      await tx.gpu.updateMany({ where: { hostId, uuid: { in: seen } }, data: { lastSeen: now } });
    }
    const procsByGpu = new Map<string, number>();
    for (const p of snap.processes) procsByGpu.set(p.gpuUuid, (procsByGpu.get(p.gpuUuid) ?? 0) + 1);
    for (const g of snap.gpus) {
      const agg = accumulate(
        state.minutes.get(g.uuid),
        at,
        g,
        g.processes ?? procsByGpu.get(g.uuid) ?? 0,
      );
      state.minutes.set(g.uuid, agg);
      const health = accumulateHealth(state.health.get(g.uuid), at, g);
      state.health.set(g.uuid, health);
      await writeMinute(tx, hostId, g.uuid, agg, health);
    }
    for (const m of snap.migs) {
      const agg = accumulate(state.minutes.get(m.key), at, m, migProcesses(m.memUsedBytes));
      state.minutes.set(m.key, agg);
      await writeMinute(tx, hostId, m.key, agg);
    }
  });
}
