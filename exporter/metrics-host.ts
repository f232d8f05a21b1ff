// gpu_host_info, whose values can change when the cloud metadata is read again, and on spot
// hosts the provider's interruption notice. Both are read from memory; a scrape does no I/O.

import { METRIC } from "./contract.ts";
import { Gauge, type Registry } from "./prom.ts";
import type { StateView } from "./state.ts";

export const HOST_LABELS = [
  "hostname",
  "provider",
  "instance_type",
  "region",
  "zone",
  "pricing_model",
  "instance_id",
];

/** Left out while unknown: an empty label is an absent one to Prometheus, and to the app. */
const OMIT_WHEN_EMPTY = new Set(["zone", "instance_id"]);

export class HostInfoMetric {
  private readonly gauge: Gauge;
  private readonly names: Set<string>;

  constructor(registry: Registry, info: Record<string, string>) {
    this.names = new Set(Object.keys(info));
    this.gauge = new Gauge({
      name: METRIC.hostInfo,
      help: "The host these GPUs belong to, for pricing and ownership; always 1.",
      labelNames: [...this.names],
      registers: [registry],
    });
    this.set(info);
  }

  /** Replace the labels; names the gauge was not made with are ignored. */
  set(info: Record<string, string>): void {
    const labels: Record<string, string> = {};
    for (const [k, v] of Object.entries(info)) {
      if (this.names.has(k) && !(v === "" && OMIT_WHEN_EMPTY.has(k))) labels[k] = v;
    }
    this.gauge.reset();
    this.gauge.set(labels, 1);
  }
}

/** gpu_host_interruption_*: registered only while the host is spot (the state has a notice). */
export function createInterruptionMetrics(registry: Registry): (view: StateView) => void {
  const pending = new Gauge({
    name: METRIC.interruptionPending,
    help: "1 once the provider announced a spot reclaim or preemption of this host, else 0.",
    registers: [],
  });
  const time = new Gauge({
    name: METRIC.interruptionTime,
    help: "Unix time of the announced interruption (when first seen if the provider gives none); 0 when none is pending.",
    registers: [],
  });
  let registered = false;
  return (view) => {
    const notice = view.interruption;
    if (!notice) {
      if (registered) {
        registry.removeSingleMetric(METRIC.interruptionPending);
        registry.removeSingleMetric(METRIC.interruptionTime);
        registered = false;
      }
      return;
    }
    if (!registered) {
      registry.registerMetric(pending);
      registry.registerMetric(time);
      registered = true;
    }
    pending.set(notice.pending ? 1 : 0);
    time.set(notice.pending ? notice.timeSeconds : 0);
  };
}
