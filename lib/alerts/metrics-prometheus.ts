import "server-only";
import type { Db } from "../db.ts";
import { promNumber, type InstantVector, type PromClient } from "../metrics/prom-api.ts";
import { POWER_REASONS, THERMAL_REASONS } from "./health-acc.ts";
import type { AlertMetrics, GpuWindowStats } from "./metrics.ts";

// Prometheus mode: the same window statistics from *_over_time queries evaluated at the window's
// end. GPUs join their host through gpu_host_info's `instance`, as the metrics source does.

const WHOLE = `gpu_instance_id=""`;
const SUBQUERY_STEP_S = 15;

function reasonRe(reasons: readonly string[]): string {
  return reasons.join("|");
}

/** The PromQL the rules need, by statistic; exported for tests and for operators to reuse. */
export function windowQueries(seconds: number): Record<string, string> {
  const d = `${seconds}s`;
  const sub = `[${d}:${SUBQUERY_STEP_S}s]`;
  const events = (reasons: readonly string[]) =>
    `max by (instance, uuid) (gpu_clock_event_active{reason=~"${reasonRe(reasons)}"})`;
  return {
    utilMax: `max_over_time(gpu_utilization_ratio{${WHOLE}}[${d}])`,
    utilAvg: `avg_over_time(gpu_utilization_ratio{${WHOLE}}[${d}])`,
    utilCount: `count_over_time(gpu_utilization_ratio{${WHOLE}}[${d}])`,
    upCount: `count_over_time(up[${d}])`,
    memMax: `max_over_time(gpu_memory_used_bytes{${WHOLE}}[${d}])`,
    memTotal: `max_over_time(gpu_memory_total_bytes{${WHOLE}}[${d}])`,
    procMax: `max_over_time(gpu_processes{${WHOLE}}[${d}])`,
    tempAvg: `avg_over_time(gpu_temperature_celsius{${WHOLE}}[${d}])`,
    tempCount: `count_over_time(gpu_temperature_celsius{${WHOLE}}[${d}])`,
    thermal: `avg_over_time(${events(THERMAL_REASONS)}${sub})`,
    power: `avg_over_time(${events(POWER_REASONS)}${sub})`,
    eventCount: `count_over_time(max by (instance, uuid) (gpu_clock_event_active)${sub})`,
    ecc: `increase(gpu_ecc_errors_total{type="uncorrected",${WHOLE}}[${d}])`,
    lastAt: `timestamp(gpu_info)`,
  };
}

export function createPrometheusAlertMetrics(db: Db, client: PromClient): AlertMetrics {
  return {
    mode: "prometheus",
    async gpuWindow(from: Date, to: Date): Promise<GpuWindowStats[]> {
      const seconds = Math.max(60, Math.round((to.getTime() - from.getTime()) / 1000));
      const q = windowQueries(seconds);
      const names = Object.keys(q);
      const [infos, hosts, ...results] = await Promise.all([
        client.query("gpu_host_info", to),
        db.host.findMany({ select: { id: true, hostname: true } }),
        ...names.map((n) => client.query(q[n] ?? "", to)),
      ]);
      const byName = new Map<string, InstantVector>(names.map((n, i) => [n, results[i] ?? []]));
      const hostIdByName = new Map(hosts.map((h) => [h.hostname, h.id]));
      const hostIdByInstance = new Map<string, string>();
      for (const s of infos) {
        const id = hostIdByName.get(s.metric.hostname ?? "");
        if (id) hostIdByInstance.set(s.metric.instance ?? "", id);
      }
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
          };
          stats.set(key, s);
        }
        return s;
      };
      const each = (
        name: string,
        set: (s: GpuWindowStats, v: number, instance: string) => void,
      ) => {
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
      const expectedSub = seconds / SUBQUERY_STEP_S;
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
      each("eventCount", (s, v) => (s.throttleCoverage = Math.min(1, v / expectedSub)));
      each("ecc", (s, v) => (s.eccUncorrectedIncrease = Math.round(v)));
      each("lastAt", (s, v) => (s.lastAt = new Date(v * 1000)));
      return [...stats.values()];
    },
  };
}
