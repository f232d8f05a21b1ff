import "server-only";
import type { Db } from "../../db.ts";
import { promNumber, type InstantVector, type PromClient } from "./api.ts";
import { GPU_EVENT_EXPRS, GPU_EVENT_RECORDED } from "./recording-rules.ts";
import { METRIC as M } from "../../../exporter/contract.ts";
import type { GpuShareAbove, GpuWindowStats } from "../source.ts";

// Prometheus mode: the same window statistics from *_over_time queries evaluated at the window's
// end. GPUs join their host through gpu_host_info's `instance`, as the metrics source does.

const WHOLE = `gpu_instance_id=""`;
const SUBQUERY_STEP_S = 15;

/** The PromQL the rules need, by statistic; exported for tests and for operators to reuse. */
export function windowQueries(seconds: number): Record<string, string> {
  const d = `${seconds}s`;
  return {
    utilMax: `max_over_time(${M.util}{${WHOLE}}[${d}])`,
    utilAvg: `avg_over_time(${M.util}{${WHOLE}}[${d}])`,
    utilCount: `count_over_time(${M.util}{${WHOLE}}[${d}])`,
    upCount: `count_over_time(up[${d}])`,
    memMax: `max_over_time(${M.memUsed}{${WHOLE}}[${d}])`,
    memTotal: `max_over_time(${M.memTotal}{${WHOLE}}[${d}])`,
    procMax: `max_over_time(${M.processes}{${WHOLE}}[${d}])`,
    tempAvg: `avg_over_time(${M.temp}{${WHOLE}}[${d}])`,
    tempCount: `count_over_time(${M.temp}{${WHOLE}}[${d}])`,
    ecc: `increase(${M.ecc}{type="uncorrected",${WHOLE}}[${d}])`,
    lastAt: `timestamp(${M.gpuInfo})`,
    smActiveMax: `max_over_time(${M.smActive}{${WHOLE}}[${d}])`,
    smActiveAvg: `avg_over_time(${M.smActive}{${WHOLE}}[${d}])`,
    smActiveCount: `count_over_time(${M.smActive}{${WHOLE}}[${d}])`,
  };
}

/**
 * Throttle statistics from the recorded clock-event series (deploy/prometheus/gpufleet-rules.yml).
 * `evaluations` counts the window's rule evaluations; `since` is when that series begins.
 */
export function throttleQueries(seconds: number): Record<string, string> {
  const d = `${seconds}s`;
  return {
    thermal: `avg_over_time(${GPU_EVENT_RECORDED.thermal}[${d}])`,
    power: `avg_over_time(${GPU_EVENT_RECORDED.power}[${d}])`,
    eventCount: `count_over_time(${GPU_EVENT_RECORDED.any}[${d}])`,
    evaluations: `count_over_time(${GPU_EVENT_RECORDED.fleetCount}[${d}])`,
    // one series, so this subquery is cheap; a sample up to 5 min before the window counts
    since: `min_over_time(timestamp(${GPU_EVENT_RECORDED.fleetCount})[${d}:${SUBQUERY_STEP_S}s])`,
  };
}

/**
 * The same statistics from the raw reason series, as subqueries over every GPU: what runs where
 * the rules are not loaded, or were loaded during the window. Correct, but at 10,000 GPUs these
 * saturate Prometheus; the README says the rules are required at that scale.
 */
export function rawThrottleQueries(seconds: number): Record<string, string> {
  const sub = `[${seconds}s:${SUBQUERY_STEP_S}s]`;
  return {
    thermal: `avg_over_time(${GPU_EVENT_EXPRS.thermal}${sub})`,
    power: `avg_over_time(${GPU_EVENT_EXPRS.power}${sub})`,
    eventCount: `count_over_time(${GPU_EVENT_EXPRS.any}${sub})`,
  };
}

type Results = Map<string, InstantVector>;

async function runQueries(
  client: PromClient,
  queries: Record<string, string>,
  at: Date,
): Promise<Results> {
  const names = Object.keys(queries);
  const results = await Promise.all(names.map((n) => client.query(queries[n] ?? "", at)));
  return new Map(names.map((n, i) => [n, results[i] ?? []]));
}

/** Throttle results and the expected sample count per GPU, recorded where they cover the window. */
async function throttleResults(
  client: PromClient,
  recorded: Results,
  seconds: number,
  from: Date,
  to: Date,
): Promise<{ results: Results; expected: number }> {
  const one = (name: string) => {
    const v = recorded.get(name)?.[0]?.value[1];
    return v === undefined ? null : promNumber(v);
  };
  const since = one("since");
  const evaluations = one("evaluations") ?? 0;
  if (since !== null && evaluations > 0 && since <= from.getTime() / 1000) {
    return { results: recorded, expected: evaluations };
  }
  const raw = await runQueries(client, rawThrottleQueries(seconds), to);
  return { results: raw, expected: seconds / SUBQUERY_STEP_S };
}

/** Stored host ids by the `instance` label of their exporter, from gpu_host_info at `at`. */
async function hostIdsByInstance(
  db: Db,
  client: PromClient,
  at: Date,
): Promise<Map<string, string>> {
  const [infos, hosts] = await Promise.all([
    client.query(M.hostInfo, at),
    db.host.findMany({ select: { id: true, hostname: true } }),
  ]);
  const hostIdByName = new Map(hosts.map((h) => [h.hostname, h.id]));
  const out = new Map<string, string>();
  for (const s of infos) {
    const id = hostIdByName.get(s.metric.hostname ?? "");
    if (id) out.set(s.metric.instance ?? "", id);
  }
  return out;
}

function windowSeconds(from: Date, to: Date): number {
  return Math.max(60, Math.round((to.getTime() - from.getTime()) / 1000));
}

export async function promGpuWindow(
  db: Db,
  client: PromClient,
  from: Date,
  to: Date,
): Promise<GpuWindowStats[]> {
  const seconds = windowSeconds(from, to);
  const [hostIdByInstance, window, recorded] = await Promise.all([
    hostIdsByInstance(db, client, to),
    runQueries(client, windowQueries(seconds), to),
    runQueries(client, throttleQueries(seconds), to),
  ]);
  const throttle = await throttleResults(client, recorded, seconds, from, to);
  const byName = new Map([...window, ...throttle.results]);
  const upCount = new Map<string, number>();
  for (const s of byName.get("upCount") ?? [])
    upCount.set(s.metric.instance ?? "", promNumber(s.value[1]) ?? 0);

  const stats = new Map<string, GpuWindowStats>();
  const entry = (m: Record<string, string>): GpuWindowStats | null => {
    const hostId = hostIdByInstance.get(m.instance ?? "");
    if (!hostId || !m.uuid || m.gpu_instance_id !== undefined) return null;
    const key = `${hostId}|${m.uuid}`;
    let s = stats.get(key);
    if (!s) {
      s = {
        hostId,
        gpuUuid: m.uuid,
        utilCoverage: 0,
        utilMax: null,
        utilAvg: null,
        memMaxBytes: null,
        memTotalBytes: null,
        processesMax: null,
        tempAvg: null,
        tempCoverage: 0,
        thermalRatio: null,
        powerRatio: null,
        throttleCoverage: 0,
        eccUncorrectedIncrease: null,
        lastAt: null,
        smActiveMax: null,
        smActiveAvg: null,
        smActiveCoverage: 0,
      };
      stats.set(key, s);
    }
    return s;
  };
  const each = (name: string, set: (s: GpuWindowStats, v: number, instance: string) => void) => {
    for (const sample of byName.get(name) ?? []) {
      const s = entry(sample.metric);
      const v = promNumber(sample.value[1]);
      if (s && v !== null) set(s, v, sample.metric.instance ?? "");
    }
  };
  const ratioOf = (n: number, instance: string) => {
    const total = upCount.get(instance) ?? 0;
    return total > 0 ? Math.min(1, n / total) : 0;
  };
  each("utilMax", (s, v) => (s.utilMax = v));
  each("utilAvg", (s, v) => (s.utilAvg = v));
  each("utilCount", (s, v, i) => (s.utilCoverage = ratioOf(v, i)));
  each("memMax", (s, v) => (s.memMaxBytes = v));
  each("memTotal", (s, v) => (s.memTotalBytes = v));
  each("procMax", (s, v) => (s.processesMax = v));
  each("tempAvg", (s, v) => (s.tempAvg = v));
  each("tempCount", (s, v, i) => (s.tempCoverage = ratioOf(v, i)));
  each("thermal", (s, v) => (s.thermalRatio = v));
  each("power", (s, v) => (s.powerRatio = v));
  each("eventCount", (s, v) => (s.throttleCoverage = Math.min(1, v / throttle.expected)));
  each("ecc", (s, v) => (s.eccUncorrectedIncrease = Math.round(v)));
  each("lastAt", (s, v) => (s.lastAt = new Date(v * 1000)));
  each("smActiveMax", (s, v) => (s.smActiveMax = v));
  each("smActiveAvg", (s, v) => (s.smActiveAvg = v));
  each("smActiveCount", (s, v, i) => (s.smActiveCoverage = ratioOf(v, i)));
  return [...stats.values()];
}

/** The PromQL of gpuShareAbove: share of subquery steps above the threshold, and coverage. */
export function shareAboveQueries(seconds: number, threshold: number): Record<string, string> {
  const d = `${seconds}s`;
  return {
    above: `avg_over_time((${M.util}{${WHOLE}} > bool ${threshold})[${d}:${SUBQUERY_STEP_S}s])`,
    utilCount: `count_over_time(${M.util}{${WHOLE}}[${d}])`,
    upCount: `count_over_time(up[${d}])`,
  };
}

export async function promGpuShareAbove(
  db: Db,
  client: PromClient,
  from: Date,
  to: Date,
  threshold: number,
): Promise<GpuShareAbove[]> {
  if (!Number.isFinite(threshold)) throw new RangeError(`threshold must be a number: ${threshold}`);
  const seconds = windowSeconds(from, to);
  const [hostIdByInstance, r] = await Promise.all([
    hostIdsByInstance(db, client, to),
    runQueries(client, shareAboveQueries(seconds, threshold), to),
  ]);
  const upCount = new Map(
    (r.get("upCount") ?? []).map((s) => [s.metric.instance ?? "", promNumber(s.value[1]) ?? 0]),
  );
  const key = (m: Record<string, string>) => `${m.instance ?? ""}|${m.uuid ?? ""}`;
  const counts = new Map((r.get("utilCount") ?? []).map((s) => [key(s.metric), s]));
  const out: GpuShareAbove[] = [];
  for (const s of r.get("above") ?? []) {
    const m = s.metric;
    const hostId = hostIdByInstance.get(m.instance ?? "");
    const share = promNumber(s.value[1]);
    if (!hostId || !m.uuid || m.gpu_instance_id !== undefined || share === null) continue;
    const n = promNumber(counts.get(key(m))?.value[1] ?? "0") ?? 0;
    const total = upCount.get(m.instance ?? "") ?? 0;
    out.push({
      hostId,
      gpuUuid: m.uuid,
      shareAbove: share,
      coverage: total > 0 ? Math.min(1, n / total) : 0,
    });
  }
  return out;
}
