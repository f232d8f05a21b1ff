import "server-only";
import { pushTo } from "../../core/group.ts";
import type { Db } from "../../db.ts";
import { migFraction } from "../../core/mig.ts";
import { parseHolderMemories } from "../../core/holders.ts";
import type { GpuSample, SamplesByHost } from "../source.ts";

// Hour samples from the store's minute aggregates: one per host per minute. The Prometheus reader
// (../prometheus/hour-samples.ts) gives the same samples, so both modes agree on a ledger hour.

export async function embeddedHourSamples(db: Db, from: Date, to: Date): Promise<SamplesByHost> {
  const [hostMinutes, gpuMinutes, gpus] = await Promise.all([
    db.hostMinute.findMany({
      where: { minuteStart: { gte: from, lt: to } },
      orderBy: { minuteStart: "asc" },
    }),
    db.gpuMinute.findMany({ where: { minuteStart: { gte: from, lt: to } } }),
    db.gpu.findMany({ select: { uuid: true, name: true, parentUuid: true, migProfile: true } }),
  ]);
  const gpuInfo = new Map(gpus.map((g) => [g.uuid, g]));
  const byHostMinute = new Map<string, GpuSample[]>();
  for (const m of gpuMinutes) {
    const info = gpuInfo.get(m.gpuUuid);
    const sample: GpuSample = {
      uuid: m.gpuUuid,
      model: info?.name ?? "unknown",
      util: m.util,
      memUsedBytes: Number(m.memUsedBytes ?? 0),
      memTotalBytes: Number(m.memTotalBytes ?? 0),
      processes: m.processes ?? 0,
      ...(m.smActive !== null ? { smActive: m.smActive } : {}),
      ...(info?.parentUuid ? { migParentUuid: info.parentUuid } : {}),
      ...(info?.parentUuid ? { migFraction: migFraction(info.migProfile) } : {}),
      holders: parseHolderMemories(m.holders),
    };
    const key = `${m.hostId}|${m.minuteStart.getTime()}`;
    pushTo(byHostMinute, key, sample);
  }
  const out: SamplesByHost = new Map();
  for (const hm of hostMinutes) {
    const up = hm.upSamples > 0;
    const gpusAt = up ? (byHostMinute.get(`${hm.hostId}|${hm.minuteStart.getTime()}`) ?? []) : [];
    const list = out.get(hm.hostId) ?? [];
    list.push({ t: hm.minuteStart, up, gpus: gpusAt });
    out.set(hm.hostId, list);
  }
  return out;
}
