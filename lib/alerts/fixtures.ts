import type { Db } from "../db.ts";
import { rebuildUsageDays } from "../ledger/usage-days.ts";

// Hand-made store contents for the alert, notification and recommendation tests.

const GIB = 1024n ** 3n;

export async function makeHost(
  db: Db,
  name: string,
  extra: Partial<{
    team: string;
    project: string;
    owner: string | null;
    labels: Record<string, string>;
    lastSeen: Date | null;
    firstSeen: Date;
    provider: string;
    instanceType: string;
    pricingModel: string;
    region: string;
  }> = {},
) {
  const { labels, ...rest } = extra;
  return db.host.create({
    data: {
      hostname: name,
      provider: "aws",
      instanceType: "p4d.24xlarge",
      region: "us-east-1",
      pricingModel: "on_demand",
      team: "research",
      project: "llm",
      owner: "alice",
      state: "up",
      labels: JSON.stringify(labels ?? {}),
      ...rest,
    },
  });
}

export async function makeGpu(
  db: Db,
  hostId: string,
  uuid: string,
  index: number,
  extra: Partial<{ lastSeen: Date | null; name: string; memGiB: number; migMode: boolean }> = {},
) {
  return db.gpu.create({
    data: {
      hostId,
      uuid,
      index,
      name: extra.name ?? "NVIDIA A100-SXM4-40GB",
      memoryTotalBytes: BigInt(extra.memGiB ?? 40) * GIB,
      migMode: extra.migMode ?? false,
      lastSeen: extra.lastSeen === undefined ? new Date() : extra.lastSeen,
    },
  });
}

export interface MinuteShape {
  util: number | null;
  memGiB?: number;
  processes?: number;
  temp?: number;
  thermal?: number | null;
  power?: number | null;
  eccUncorrected?: number | null;
}

/** One GpuMinute row per minute in [from, to), shaped by `at(minuteStart)`. */
export async function writeMinutes(
  db: Db,
  hostId: string,
  gpuUuid: string,
  from: Date,
  to: Date,
  at: (t: Date) => MinuteShape | null,
) {
  const data = [];
  for (let t = from.getTime(); t < to.getTime(); t += 60_000) {
    const m = at(new Date(t));
    if (!m) continue;
    data.push({
      hostId,
      gpuUuid,
      minuteStart: new Date(t),
      samples: 4,
      util: m.util,
      memUsedBytes: BigInt(Math.round((m.memGiB ?? 0) * 1024)) * 1024n * 1024n,
      memTotalBytes: 40n * GIB,
      processes: m.processes ?? 0,
      tempCelsius: m.temp ?? 50,
      thermalThrottleRatio: m.thermal === undefined ? 0 : m.thermal,
      powerThrottleRatio: m.power === undefined ? 0 : m.power,
      eccUncorrected: m.eccUncorrected === undefined ? 0 : m.eccUncorrected,
    });
  }
  if (data.length > 0) await db.gpuMinute.createMany({ data });
}

export interface HourShape {
  gpuKey?: string;
  parentKey?: string | null;
  upSeconds?: number;
  utilMean?: number | null;
  utilP95?: number | null;
  memPeakGiB?: number | null;
  memTotalGiB?: number | null;
  idleSeconds?: number;
  idleHeldSeconds?: number;
  costMicros?: bigint;
  idleCostMicros?: bigint;
  team?: string;
  project?: string;
  provider?: string;
}

/** Ledger rows, one per hour in [from, to), shaped by `at(hourStart)`. */
export async function writeHours(
  db: Db,
  host: {
    id: string;
    provider: string;
    instanceType: string;
    region: string;
    pricingModel: string;
    team: string;
    project: string;
  },
  from: Date,
  to: Date,
  at: (t: Date) => HourShape | HourShape[] | null,
) {
  const data = [];
  for (let t = from.getTime(); t < to.getTime(); t += 3_600_000) {
    const shape = at(new Date(t));
    if (!shape) continue;
    for (const s of Array.isArray(shape) ? shape : [shape]) {
      const gib = (v: number | null | undefined) =>
        v === null || v === undefined ? null : BigInt(Math.round(v * 1024)) * 1024n * 1024n;
      data.push({
        hourStart: new Date(t),
        hostId: host.id,
        gpuKey: s.gpuKey ?? "host",
        parentKey: s.parentKey ?? null,
        provider: s.provider ?? host.provider,
        instanceType: host.instanceType,
        region: host.region,
        pricingModel: host.pricingModel,
        team: s.team ?? host.team,
        project: s.project ?? host.project,
        upSeconds: s.upSeconds ?? 3600,
        samples: 60,
        utilMean: s.utilMean === undefined ? 0.5 : s.utilMean,
        utilP95: s.utilP95 === undefined ? 0.6 : s.utilP95,
        memPeakBytes: gib(s.memPeakGiB === undefined ? 10 : s.memPeakGiB),
        memTotalBytes: gib(s.memTotalGiB === undefined ? 40 : s.memTotalGiB),
        idleSeconds: s.idleSeconds ?? 0,
        idleHeldSeconds: s.idleHeldSeconds ?? 0,
        priced: true,
        costMicros: s.costMicros ?? 0n,
        idleCostMicros: s.idleCostMicros ?? 0n,
        source: "test",
      });
    }
  }
  for (let i = 0; i < data.length; i += 2000)
    await db.usageHour.createMany({ data: data.slice(i, i + 2000) });
  // the month's spend (budgets, fleet headline) is read from the day roll-up lib/ledger keeps
  await rebuildUsageDays(db);
}
