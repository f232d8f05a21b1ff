import { stringify } from "yaml";
import { METRIC as M, POWER_REASONS, THERMAL_REASONS } from "../../../exporter/contract.ts";

// Prometheus recording rules for large fleets. The fleet chart reads the `fleet` series instead of
// aggregating every GPU series at each step (lib/metrics/prometheus/source.ts falls back to the raw
// expression where they are absent). deploy/prometheus/gpufleet-rules.yml is generated from this
// (`npm run prometheus:rules`) and a test keeps the two equal.

export interface RecordingRule {
  record: string;
  expr: string;
}

const withHostname = (expr: string) => `${expr} * on(instance) group_left(hostname) ${M.hostInfo}`;

/** The raw expressions the fleet chart needs, by name: recorded and fallback share them. */
export const FLEET_EXPRS = {
  utilization: `avg(${M.util})`,
  memoryUsed: `sum(${M.memUsed})`,
  gpusReporting: `count(${M.gpuInfo} and on(instance) up == 1)`,
} as const;

export const FLEET_RECORDED = {
  utilization: "gpufleet:fleet_utilization:avg",
  memoryUsed: "gpufleet:fleet_memory_used_bytes:sum",
  gpusReporting: "gpufleet:fleet_gpus_reporting:count",
} as const;

const clockEvents = (reasons?: readonly string[]) =>
  `max by (instance, uuid) (${M.clockEvent}${reasons ? `{reason=~"${reasons.join("|")}"}` : ""})`;

/**
 * Per GPU, 1 while any clock-event reason of a class is active: the throttle alert rule averages
 * these over its window (lib/metrics/prometheus/gpu-window.ts) instead of a subquery over every raw
 * reason series, which saturated Prometheus at 10,000 GPUs.
 */
export const GPU_EVENT_EXPRS = {
  thermal: clockEvents(THERMAL_REASONS),
  power: clockEvents(POWER_REASONS),
  any: clockEvents(),
} as const;

export const GPU_EVENT_RECORDED = {
  thermal: "gpufleet:gpu_thermal_clock_event:max",
  power: "gpufleet:gpu_power_clock_event:max",
  any: "gpufleet:gpu_clock_event:max",
  /** one sample per evaluation while any GPU reports clock events: the window's evaluation count */
  fleetCount: "gpufleet:fleet_gpus_clock_events:count",
} as const;

export const RULES: readonly RecordingRule[] = [
  { record: FLEET_RECORDED.utilization, expr: FLEET_EXPRS.utilization },
  { record: FLEET_RECORDED.memoryUsed, expr: FLEET_EXPRS.memoryUsed },
  { record: FLEET_RECORDED.gpusReporting, expr: FLEET_EXPRS.gpusReporting },
  // per host, with the hostname from gpu_host_info so dashboards need no join
  {
    record: "gpufleet:host_utilization:avg",
    expr: `avg by (instance, hostname) (${withHostname(M.util)})`,
  },
  {
    record: "gpufleet:host_memory_used_bytes:sum",
    expr: `sum by (instance, hostname) (${withHostname(M.memUsed)})`,
  },
  {
    record: "gpufleet:host_gpus_reporting:count",
    expr: `count by (instance, hostname) (${withHostname(`(${M.gpuInfo} and on(instance) up == 1)`)})`,
  },
  { record: GPU_EVENT_RECORDED.thermal, expr: GPU_EVENT_EXPRS.thermal },
  { record: GPU_EVENT_RECORDED.power, expr: GPU_EVENT_EXPRS.power },
  { record: GPU_EVENT_RECORDED.any, expr: GPU_EVENT_EXPRS.any },
  // rules of a group run in order at one timestamp: this reads the series recorded just above
  { record: GPU_EVENT_RECORDED.fleetCount, expr: `count(${GPU_EVENT_RECORDED.any})` },
];

export const RULES_HEADER =
  "# gpufleet recording rules for Prometheus (rule_files). Generated from\n" +
  "# lib/metrics/prometheus/recording-rules.ts: `npm run -s prometheus:rules > gpufleet-rules.yml`.\n";

export function rulesYaml(interval?: string): string {
  const group = { name: "gpufleet", ...(interval ? { interval } : {}), rules: RULES };
  return RULES_HEADER + stringify({ groups: [group] }, { lineWidth: 0 });
}
