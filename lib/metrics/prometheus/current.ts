import { promNumber, type InstantVector, type PromClient } from "./api.ts";
import type { CurrentGpu } from "../source.ts";
import { METRIC as M } from "../../../exporter/contract.ts";

// Every GPU's current figures from Prometheus in a few small queries: one per metric, each
// aggregated down to the labels the join needs, so 10,000 GPUs cost ~10k short series per query
// (not 70k series carrying every exporter and target label), and the event loop parses one
// answer at a time instead of one 18 MB body.

/** Labels that identify a GPU or MIG slice of one exporter (`instance`). */
const KEY = "instance, uuid, gpu, gpu_instance_id";

type Field =
  | "util"
  | "memUsedBytes"
  | "memTotalBytes"
  | "powerWatts"
  | "tempCelsius"
  | "processes"
  | "smActive";

/** Per-GPU value metrics and the field each fills. */
export const CURRENT_VALUES: ReadonlyArray<[Field, string]> = [
  ["util", M.util],
  ["memUsedBytes", M.memUsed],
  ["memTotalBytes", M.memTotal],
  ["powerWatts", M.power],
  ["tempCelsius", M.temp],
  ["processes", M.processes],
  ["smActive", M.smActive],
];

export const CURRENT_QUERIES = {
  hosts: `max by (instance, hostname) (${M.hostInfo})`,
  up: "max by (instance) (up)",
  info: `max by (${KEY}, name) (${M.gpuInfo})`,
  migTotal: `max by (${KEY}, mig_profile) (${M.migMemTotal})`,
  ...Object.fromEntries(CURRENT_VALUES.map(([, m]) => [m, `max by (${KEY}) (${m})`])),
} as Readonly<Record<string, string>>;

export interface CurrentAnswers {
  hosts: InstantVector;
  up: InstantVector;
  info: InstantVector;
  migTotal: InstantVector;
  values: ReadonlyArray<[Field, InstantVector]>;
}

export async function queryCurrent(client: PromClient): Promise<CurrentAnswers> {
  const q = (name: string) => client.query(CURRENT_QUERIES[name] ?? name);
  const [hosts, up, info, migTotal, ...values] = await Promise.all([
    q("hosts"),
    q("up"),
    q("info"),
    q("migTotal"),
    ...CURRENT_VALUES.map(([, metric]) => q(metric)),
  ]);
  return {
    hosts,
    up,
    info,
    migTotal,
    values: CURRENT_VALUES.map(([field], i): [Field, InstantVector] => [field, values[i] ?? []]),
  };
}

/** Joins the answers into one CurrentGpu per GPU and MIG slice; `hostIds` maps hostname → id. */
export function joinCurrent(a: CurrentAnswers, hostIds: ReadonlyMap<string, string>): CurrentGpu[] {
  const hostByInstance = new Map<string, string>();
  for (const s of a.hosts) hostByInstance.set(s.metric.instance ?? "", s.metric.hostname ?? "");
  const upByInstance = new Map<string, boolean>();
  for (const s of a.up) upByInstance.set(s.metric.instance ?? "", s.value[1] === "1");

  const gpus = new Map<string, CurrentGpu>();
  const entry = (m: Record<string, string>, at: number): CurrentGpu | null => {
    if (!m.uuid) return null;
    const instance = m.instance ?? "";
    const k = `${instance}|${m.uuid}|${m.gpu_instance_id ?? ""}`;
    let g = gpus.get(k);
    if (!g) {
      const hostname = hostByInstance.get(instance) ?? instance;
      const mig = m.gpu_instance_id !== undefined;
      g = {
        hostId: hostIds.get(hostname) ?? hostname,
        hostname,
        uuid: mig ? `${m.uuid}:gi${m.gpu_instance_id}` : m.uuid,
        index: Number(m.gpu ?? 0),
        name: "",
        util: null,
        memUsedBytes: null,
        memTotalBytes: null,
        powerWatts: null,
        tempCelsius: null,
        processes: null,
        lastSeen: new Date(at * 1000),
        reporting: upByInstance.get(instance) ?? false,
        parentUuid: mig ? m.uuid : null,
        migProfile: m.mig_profile ?? null,
      };
      gpus.set(k, g);
    }
    return g;
  };

  for (const s of a.info) {
    const g = entry(s.metric, s.value[0]);
    if (g) g.name = s.metric.name ?? g.name;
  }
  for (const s of a.migTotal) {
    const g = entry(s.metric, s.value[0]);
    if (g) g.memTotalBytes = promNumber(s.value[1]);
  }
  for (const [field, vec] of a.values) {
    for (const s of vec) {
      const g = entry(s.metric, s.value[0]);
      if (g) g[field] = promNumber(s.value[1]);
    }
  }
  return [...gpus.values()];
}
