import "server-only";
import { HOUR_MS } from "../../core/time.ts";
import {
  METRIC as M,
  WORK_COUNTERS,
  WORK_METRIC,
  WORK_UNITS,
  type WorkUnit,
} from "../../../exporter/contract.ts";
import type { WorkHourRow } from "../source.ts";
import { promNumber, type PromClient, type RangeMatrix } from "./api.ts";

// Work counters from Prometheus: increase() over each UTC hour of the exporter's normalised
// WORK_METRIC and of the inference servers' own counters (WORK_COUNTERS, mapped to units). The
// servers' series come from their own scrape targets, so they are joined to hosts the way
// HostIndex says; where a host's exporter already relays a server (WORK_METRIC with that source),
// the server's own series are not counted again.

/** How a series finds its host: labels naming it, its scrape target, or the pod it runs in. */
export interface HostIndex {
  /** hostname → host id (the store's hosts) */
  ids: Map<string, string>;
  /** exporter target (`instance` of gpu_host_info) → hostname */
  byInstance: Map<string, string>;
  /** "namespace/pod" → hostname, from the exporter's process holders */
  byPod: Map<string, string>;
}

const HOST_LABELS = ["hostname", "host", "node", "kubernetes_node", "nodename"] as const;

/** The address part of an `instance` ("10.0.0.7:8000" → "10.0.0.7", "[::1]:80" → "[::1]"). */
export function instanceAddress(instance: string): string {
  const m = /^(.*):\d+$/.exec(instance);
  return m?.[1] ?? instance;
}

/** The host id of a series, or null when nothing ties it to a known host. */
export function hostOf(labels: Record<string, string>, index: HostIndex): string | null {
  for (const l of HOST_LABELS) {
    const id = labels[l] === undefined ? undefined : index.ids.get(labels[l]);
    if (id) return id;
  }
  const instance = labels.instance ?? "";
  const exact = index.byInstance.get(instance);
  if (exact) return index.ids.get(exact) ?? null;
  const addr = instanceAddress(instance);
  for (const [inst, hostname] of index.byInstance) {
    if (addr !== "" && instanceAddress(inst) === addr) return index.ids.get(hostname) ?? null;
  }
  const pod = labels.pod ?? labels.kubernetes_pod_name ?? labels.pod_name;
  const ns = labels.namespace ?? labels.kubernetes_namespace ?? labels.pod_namespace;
  if (pod && ns) {
    const hostname = index.byPod.get(`${ns}/${pod}`);
    if (hostname) return index.ids.get(hostname) ?? null;
  }
  return null;
}

export interface WorkAnswers {
  /** increase(WORK_METRIC[1h]) */
  normalised: RangeMatrix;
  /** increase(<server counter>[1h]), one matrix per WORK_COUNTERS entry, in its order */
  counters: RangeMatrix[];
}

const UNITS = new Set<string>(WORK_UNITS);

/** Joins the answers into hour rows (pure; stamps are each hour's end, shifted to its start). */
export function joinWorkHours(answers: WorkAnswers, index: HostIndex): WorkHourRow[] {
  const rows = new Map<string, WorkHourRow>();
  const relayed = new Set<string>(); // hostId + source relayed by the exporter
  const add = (
    hostId: string,
    values: RangeMatrix[number]["values"],
    d: Omit<WorkHourRow, "hostId" | "hourStart" | "units">,
  ) => {
    for (const [t, raw] of values) {
      const v = promNumber(raw);
      if (v === null) continue;
      const hourStart = new Date(Math.round(t * 1000) - HOUR_MS);
      const key = [hostId, hourStart.getTime(), d.unit, d.modelName, d.job].join("\u0000");
      const cur = rows.get(key);
      if (cur) cur.units += Math.max(0, v);
      else rows.set(key, { hostId, hourStart, ...d, units: Math.max(0, v) });
    }
  };
  for (const s of answers.normalised) {
    const m = s.metric;
    const hostId = hostOf(m, index);
    if (!hostId || !UNITS.has(m.unit ?? "")) continue;
    const source = m.source ?? "";
    relayed.add(`${hostId}\u0000${source}`);
    // Prometheus renames the exporter's `job` label to exported_job (its own target label wins)
    const job = m.exported_job ?? m.job ?? "";
    add(hostId, s.values, { unit: m.unit as WorkUnit, modelName: m.model_name ?? "", job, source });
  }
  WORK_COUNTERS.forEach((c, i) => {
    for (const s of answers.counters[i] ?? []) {
      const hostId = hostOf(s.metric, index);
      if (!hostId || relayed.has(`${hostId}\u0000${c.source}`)) continue;
      const modelName = c.modelLabel ? (s.metric[c.modelLabel] ?? "") : "";
      add(hostId, s.values, { unit: c.unit, modelName, job: s.metric.job ?? "", source: c.source });
    }
  });
  return [...rows.values()].sort(
    (a, b) => a.hostId.localeCompare(b.hostId) || a.hourStart.getTime() - b.hourStart.getTime(),
  );
}

/** Hour rows in [from, to) from Prometheus (hours whose end falls in (from, to]). */
export async function promWorkHours(
  client: PromClient,
  ids: Map<string, string>,
  from: Date,
  to: Date,
): Promise<WorkHourRow[]> {
  const first = Math.ceil(from.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS;
  const last = Math.floor(to.getTime() / HOUR_MS) * HOUR_MS;
  if (first > last) return [];
  const start = new Date(first);
  const end = new Date(last);
  const span = `${Math.max(3600, Math.round((last - first) / 1000) + 3600)}s`;
  const range = (q: string) => client.queryRange(q, start, end, 3600);
  const [normalised, info, pods, ...counters] = await Promise.all([
    range(`increase(${WORK_METRIC}[1h])`),
    client.query(`max by (instance, hostname) (max_over_time(${M.hostInfo}[${span}]))`, end),
    client.query(
      `max by (instance, pod_namespace, pod_name) (max_over_time(${M.processMemory}{pod_name!=""}[${span}]))`,
      end,
    ),
    // names with colons (vllm:…) are valid PromQL metric names as they are
    ...WORK_COUNTERS.map((c) => range(`increase(${c.name}[1h])`)),
  ]);
  const byInstance = new Map<string, string>();
  for (const s of info) {
    if (s.metric.instance && s.metric.hostname)
      byInstance.set(s.metric.instance, s.metric.hostname);
  }
  const byPod = new Map<string, string>();
  for (const s of pods) {
    const host = byInstance.get(s.metric.instance ?? "");
    if (host && s.metric.pod_name && s.metric.pod_namespace)
      byPod.set(`${s.metric.pod_namespace}/${s.metric.pod_name}`, host);
  }
  return joinWorkHours({ normalised, counters }, { ids, byInstance, byPod });
}
