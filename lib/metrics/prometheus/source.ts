import "server-only";
import { holderFromLabels } from "../../core/holders.ts";
import type { Db } from "../../db.ts";
import { HOUR_MS } from "../../core/time.ts";
import { bucketMs } from "../downsample.ts";
import {
  createPromClient,
  promNumber,
  promString,
  type PromClient,
  type RangeMatrix,
} from "./api.ts";
import { joinCurrent, queryCurrent } from "./current.ts";
import { promGpuShareAbove, promGpuWindow } from "./gpu-window.ts";
import { promHourSamples } from "./hour-samples.ts";
import { promWorkHours } from "./work-hours.ts";
import { FLEET_EXPRS, FLEET_RECORDED } from "./recording-rules.ts";
import type {
  CurrentGpu,
  FleetSeries,
  GpuSeries,
  MetricsSource,
  ProcessInfo,
  SeriesPoint,
  TimeRange,
} from "../source.ts";
import { METRIC as M } from "../../../exporter/contract.ts";

// Reads every live and historical GPU metric from a Prometheus-compatible API. Hosts are joined to
// their GPU series through the `instance` label of gpu_host_info, which the exporter serves.

/** `metric` restricted to the host whose gpu_host_info says `hostname`. */
export function onHost(metric: string, hostname: string): string {
  return `${metric} and on(instance) ${M.hostInfo}{hostname=${promString(hostname)}}`;
}

/**
 * A fleet aggregate from its recording rule (deploy/prometheus/gpufleet-rules.yml), which costs
 * one series per step instead of every GPU's; the raw expression covers the range where the rule
 * has no samples (rules not loaded, or loaded after the range starts).
 */
export async function recordedOrRaw(
  client: PromClient,
  recorded: string,
  raw: string,
  range: { from: Date; to: Date },
  stepS: number,
): Promise<RangeMatrix> {
  const rec = await client.queryRange(recorded, range.from, range.to, stepS);
  const values = rec[0]?.values ?? [];
  const firstS = values[0]?.[0];
  if (firstS === undefined) return client.queryRange(raw, range.from, range.to, stepS);
  if (firstS - range.from.getTime() / 1000 < stepS) return rec;
  const head = await client.queryRange(raw, range.from, new Date((firstS - stepS) * 1000), stepS);
  return [{ metric: {}, values: [...(head[0]?.values ?? []), ...values] }];
}

function toPoints(m: RangeMatrix[number] | undefined): SeriesPoint[] {
  return (m?.values ?? []).map(([t, v]) => ({ t: Math.round(t * 1000), v: promNumber(v) }));
}

export function createPrometheusSource(
  db: Db,
  baseUrl: string,
  client: PromClient = createPromClient(baseUrl),
): MetricsSource {
  let lastSuccess: Date | null = null;
  const track = async <T>(p: Promise<T>): Promise<T> => {
    const v = await p;
    lastSuccess = new Date();
    return v;
  };
  const hostIds = async () =>
    new Map(
      (await db.host.findMany({ select: { id: true, hostname: true } })).map((h) => [
        h.hostname,
        h.id,
      ]),
    );
  const hostnameOf = async (hostId: string) =>
    (await db.host.findUnique({ where: { id: hostId }, select: { hostname: true } }))?.hostname;

  return {
    mode: "prometheus",

    async currentGpus(): Promise<CurrentGpu[]> {
      const [answers, ids] = await Promise.all([track(queryCurrent(client)), hostIds()]);
      return joinCurrent(answers, ids);
    },

    async fleetSeries(range: TimeRange): Promise<FleetSeries> {
      const step = bucketMs(range.from, range.to, range.maxPoints) / 1000;
      const q = (key: keyof typeof FLEET_EXPRS) =>
        track(recordedOrRaw(client, FLEET_RECORDED[key], FLEET_EXPRS[key], range, step));
      const [util, mem, count] = await Promise.all([
        q("utilization"),
        q("memoryUsed"),
        q("gpusReporting"),
      ]);
      return {
        util: toPoints(util[0]),
        memUsedBytes: toPoints(mem[0]),
        gpusReporting: toPoints(count[0]),
      };
    },

    async gpuSeries(hostId: string, range: TimeRange): Promise<GpuSeries[]> {
      const hostname = await hostnameOf(hostId);
      if (!hostname) return [];
      const step = bucketMs(range.from, range.to, range.maxPoints) / 1000;
      const q = (metric: string) =>
        track(client.queryRange(onHost(metric, hostname), range.from, range.to, step));
      const [info, util, mem, power, temp, sm, active] = await Promise.all([
        client.query(onHost(M.gpuInfo, hostname)),
        q(M.util),
        q(M.memUsed),
        q(M.power),
        q(M.temp),
        q(M.smClock),
        q(M.smActive),
      ]);
      const pick = (m: RangeMatrix, uuid: string) =>
        toPoints(m.find((s) => s.metric.uuid === uuid && s.metric.gpu_instance_id === undefined));
      return info
        .map((s) => ({
          uuid: s.metric.uuid ?? "",
          index: Number(s.metric.gpu ?? 0),
          name: s.metric.name ?? "",
        }))
        .sort((a, b) => a.index - b.index)
        .map((g) => ({
          ...g,
          util: pick(util, g.uuid),
          memUsedBytes: pick(mem, g.uuid),
          powerWatts: pick(power, g.uuid),
          tempCelsius: pick(temp, g.uuid),
          smClockHz: pick(sm, g.uuid),
          smActive: pick(active, g.uuid),
        }));
    },

    async processes(hostId: string): Promise<ProcessInfo[]> {
      const hostname = await hostnameOf(hostId);
      if (!hostname) return [];
      const vec = await track(client.query(onHost(M.processMemory, hostname)));
      return vec.map((s) => ({
        gpuUuid: s.metric.uuid ?? "",
        pid: Number(s.metric.pid ?? 0),
        processName: s.metric.process_name ?? "",
        usedMemoryBytes: promNumber(s.value[1]) ?? 0,
        holder: holderFromLabels(s.metric),
        ...(s.metric.gpu_instance_id !== undefined
          ? { gpuInstanceId: Number(s.metric.gpu_instance_id) }
          : {}),
      }));
    },

    async health() {
      try {
        await track(client.query("vector(1)"));
        return { ok: true, lastSuccess, error: null };
      } catch (e) {
        return { ok: false, lastSuccess, error: (e as Error).message };
      }
    },

    gpuWindow: (from, to) => track(promGpuWindow(db, client, from, to)),
    gpuShareAbove: (from, to, threshold) =>
      track(promGpuShareAbove(db, client, from, to, threshold)),
    hourSamples: async (from, to, stepS) =>
      track(promHourSamples(client, await hostIds(), from, to, stepS)),
    ledgerStart: async (now) => {
      const hour = now.getTime() - (now.getTime() % HOUR_MS);
      return new Date(hour - HOUR_MS);
    },
    workHours: async (from, to) => track(promWorkHours(client, await hostIds(), from, to)),
  };
}
