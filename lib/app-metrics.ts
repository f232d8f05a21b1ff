import "server-only";
import { collectDefaultMetrics, Gauge, Registry } from "prom-client";
import { db } from "@/lib/db.ts";

// The app's own /api/metrics, for Prometheus to watch gpufleet itself: fleet size, hosts down,
// alerts firing, notifications waiting, how old the collector's last tick is, and the Node
// process. Values are read from the store at scrape time, so every replica reports the same fleet.

function build(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "gpufleet_app_" });

  new Gauge({
    name: "gpufleet_hosts",
    help: "Hosts known to gpufleet, by scrape state (up, down, unknown).",
    labelNames: ["state"],
    registers: [registry],
    async collect() {
      this.reset();
      const groups = await db.host.groupBy({ by: ["state"], _count: { _all: true } });
      for (const g of groups) this.set({ state: g.state }, g._count._all);
    },
  });
  new Gauge({
    name: "gpufleet_gpus",
    help: "GPUs known to gpufleet.",
    registers: [registry],
    async collect() {
      this.set(await db.gpu.count());
    },
  });
  new Gauge({
    name: "gpufleet_alerts",
    help: "Alerts by state (firing, acknowledged, snoozed, resolved).",
    labelNames: ["state"],
    registers: [registry],
    async collect() {
      this.reset();
      const groups = await db.alert.groupBy({ by: ["state"], _count: { _all: true } });
      for (const g of groups) this.set({ state: g.state }, g._count._all);
    },
  });
  new Gauge({
    name: "gpufleet_notifications",
    help: "Notifications by delivery status (pending, sent, failed).",
    labelNames: ["status"],
    registers: [registry],
    async collect() {
      this.reset();
      const groups = await db.notification.groupBy({ by: ["status"], _count: { _all: true } });
      for (const g of groups) this.set({ status: g.status }, g._count._all);
    },
  });
  new Gauge({
    name: "gpufleet_collector_last_tick_timestamp_seconds",
    help: "When the collector last finished a tick (0 when it never has).",
    registers: [registry],
    async collect() {
      const row = await db.jobState.findUnique({ where: { name: "collector.lastTick" } });
      const t = row ? Date.parse(row.value) : NaN;
      this.set(Number.isFinite(t) ? t / 1000 : 0);
    },
  });
  return registry;
}

const globalForMetrics = globalThis as unknown as { gpufleetAppMetrics?: Registry };

export function appMetrics(): Registry {
  globalForMetrics.gpufleetAppMetrics ??= build();
  return globalForMetrics.gpufleetAppMetrics;
}
