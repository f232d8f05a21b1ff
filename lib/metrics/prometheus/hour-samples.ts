import "server-only";
import { METRIC as M } from "../../../exporter/contract.ts";
import { migFraction } from "../../core/mig.ts";
import { holderFromLabels, mergeHolders } from "../../core/holders.ts";
import type { GpuSample, SamplesByHost } from "../source.ts";
import { promNumber, type PromClient, type RangeMatrix } from "./api.ts";

/**
 * Same samples from Prometheus. Each minute's value is the *_over_time of the scrapes inside that
 * minute, evaluated at its end and stamped at its start, which is exactly what the embedded
 * collector stores as a minute aggregate, so both modes give the same ledger.
 */
export async function promHourSamples(
  client: PromClient,
  hostIdByName: Map<string, string>,
  from: Date,
  to: Date,
  stepS = 60,
): Promise<SamplesByHost> {
  const w = `[${stepS}s]`;
  const withHost = (m: string) => `${m} * on(instance) group_left(hostname) ${M.hostInfo}`;
  // Evaluate at each minute's end (inclusive API range), then shift the stamps back one step.
  const start = new Date(from.getTime() + stepS * 1000);
  const q = async (promql: string): Promise<RangeMatrix> =>
    (await client.queryRange(promql, start, to, stepS)).map((series) => ({
      metric: series.metric,
      values: series.values.map(([t, v]) => [t - stepS, v] as [number, string]),
    }));
  const [up, util, used, total, procs, info, migUsed, migTotal, active, held, k8s] =
    await Promise.all([
      q(
        `max by (hostname) (max_over_time(up${w}) * on(instance) group_left(hostname) ${M.hostInfo})`,
      ),
      q(withHost(`avg_over_time(${M.util}${w})`)),
      q(withHost(`max_over_time(${M.memUsed}${w})`)),
      q(withHost(`max_over_time(${M.memTotal}${w})`)),
      q(withHost(`max_over_time(${M.processes}${w})`)),
      client.query(withHost(M.gpuInfo), to),
      q(withHost(`max_over_time(${M.migMemUsed}${w})`)),
      q(withHost(`max_over_time(${M.migMemTotal}${w})`)),
      q(withHost(`avg_over_time(${M.smActive}${w})`)),
      // who held each GPU: the exporter's process series (HOLDER_LABELS), and dcgm-exporter's
      // Kubernetes labels where a GPU series carries them
      q(withHost(`avg_over_time(${M.processMemory}${w})`)),
      q(withHost(`max_over_time(${M.memUsed}{pod!=""}${w})`)),
    ]);
  const names = new Map(info.map((s) => [s.metric.uuid ?? "", s.metric.name ?? "unknown"]));
  type Acc = Map<number, Map<string, GpuSample>>;
  const perHost = new Map<string, Acc>();
  const unitFor = (hostname: string, t: number, key: string, init: () => GpuSample) => {
    const acc = perHost.get(hostname) ?? new Map();
    perHost.set(hostname, acc);
    const at = acc.get(t) ?? new Map<string, GpuSample>();
    acc.set(t, at);
    const s = at.get(key) ?? init();
    at.set(key, s);
    return s;
  };
  const fill = (matrix: RangeMatrix, mig: boolean, set: (s: GpuSample, v: number) => void) => {
    for (const series of matrix) {
      const { hostname, uuid, gpu_instance_id: gi, mig_profile: profile } = series.metric;
      if (!hostname || !uuid) continue;
      const key = mig ? `${uuid}:gi${gi ?? ""}` : uuid;
      for (const [ts, raw] of series.values) {
        const v = promNumber(raw);
        if (v === null) continue;
        const s = unitFor(hostname, Math.round(ts * 1000), key, () => ({
          uuid: key,
          model: names.get(uuid) ?? "unknown",
          util: null,
          memUsedBytes: 0,
          memTotalBytes: 0,
          processes: 0,
          ...(mig ? { migParentUuid: uuid, migFraction: migFraction(profile ?? null) } : {}),
        }));
        set(s, v);
      }
    }
  };
  fill(util, false, (s, v) => (s.util = v));
  fill(used, false, (s, v) => (s.memUsedBytes = v));
  fill(total, false, (s, v) => (s.memTotalBytes = v));
  fill(procs, false, (s, v) => (s.processes = v));
  fill(active, false, (s, v) => (s.smActive = v));
  fill(migUsed, true, (s, v) => (s.memUsedBytes = v));
  fill(migTotal, true, (s, v) => (s.memTotalBytes = v));
  const addHolder = (s: GpuSample, labels: Record<string, string>, v: number) => {
    const holder = holderFromLabels(labels);
    if (holder) s.holders = mergeHolders([...(s.holders ?? []), { holder, memBytes: v }]);
  };
  for (const series of held) {
    const mig = series.metric.gpu_instance_id !== undefined;
    fill([series], mig, (s, v) => addHolder(s, series.metric, v));
  }
  // a GPU whose process series name nobody may still carry dcgm-exporter's pod labels
  const named = new Set(held.map((s) => s.metric.uuid));
  for (const series of k8s) {
    if (named.has(series.metric.uuid)) continue;
    fill([series], false, (s, v) => addHolder(s, series.metric, v));
  }

  const out: SamplesByHost = new Map();
  for (const series of up) {
    const hostname = series.metric.hostname ?? "";
    const hostId = hostIdByName.get(hostname);
    if (!hostId) continue;
    const acc = perHost.get(hostname);
    out.set(
      hostId,
      series.values.map(([ts, raw]) => {
        const t = Math.round(ts * 1000);
        const isUp = promNumber(raw) === 1;
        return { t: new Date(t), up: isUp, gpus: isUp ? [...(acc?.get(t)?.values() ?? [])] : [] };
      }),
    );
  }
  return out;
}
