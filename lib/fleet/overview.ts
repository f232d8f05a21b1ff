import type { CurrentGpu } from "@/lib/metrics/source.ts";
import {
  ATTENTION_PREVIEW,
  ATTENTION_REASONS,
  GPU_STATUSES,
  GROUP_BYS,
  type AttentionReason,
  type FleetGpu,
  type FleetGroup,
  type FleetSummary,
  type GridGpu,
  type GroupBy,
} from "@/lib/zod/schemas/fleet.ts";
import { isIdle } from "./classify-gpu.ts";
import { toHostState, type HostLike } from "./summarize.ts";
import { pushTo } from "../core/group.ts";

// What a person needs first at any fleet size: aggregates per team, provider, GPU model and state,
// and the GPUs that need attention. The grid itself is served by group, a page at a time
// (fleetGpuPage), from the index built here once per cached snapshot and scope.

/** A reporting GPU at or above this temperature is unhealthy (thermal slowdown starts near it). */
export const HOT_CELSIUS = 85;

export type Overview = Pick<FleetSummary, "groups" | "attention">;

export interface FleetIndex {
  /** GPUs of each group, grid order (host by host) */
  groups: Record<GroupBy, Map<string, FleetGpu[]>>;
  /** GPUs that need attention, most urgent first */
  attention: FleetGpu[];
  overview: Overview;
}

const URGENCY: Record<AttentionReason, number> = {
  interrupted: 0,
  unhealthy: 1,
  not_reporting: 2,
  idle: 3,
};

/** Why a GPU needs attention, the most urgent reason first; null when it does not. */
export function attentionReason(
  g: GridGpu,
  host: HostLike | undefined,
  tempCelsius: number | null,
): AttentionReason | null {
  if (host && (toHostState(host.state) === "interrupted" || host.interruptionPending === true))
    return "interrupted";
  if (g.status !== "not_reporting" && tempCelsius !== null && tempCelsius >= HOT_CELSIUS)
    return "unhealthy";
  if (g.status === "not_reporting") return "not_reporting";
  if (isIdle(g.status)) return "idle";
  return null;
}

function groupKey(by: GroupBy, g: GridGpu, host: HostLike | undefined): string {
  switch (by) {
    case "team":
      return host?.team ?? "(no host)";
    case "provider":
      return host?.provider ?? "(no host)";
    case "model":
      return g.name || "(unknown model)";
    case "state":
      return g.status;
  }
}

function summarizeGroup(key: string, gpus: readonly FleetGpu[]): FleetGroup {
  const statuses = Object.fromEntries(GPU_STATUSES.map((s) => [s, 0])) as FleetGroup["statuses"];
  const hosts = new Set<string>();
  let utilSum = 0;
  let utilN = 0;
  let attention = 0;
  for (const g of gpus) {
    statuses[g.status] += 1;
    hosts.add(g.hostId);
    if (g.util !== null && g.status !== "not_reporting" && g.status !== "mig") {
      utilSum += g.util;
      utilN += 1;
    }
    if (g.reason !== null) attention += 1;
  }
  return {
    key,
    hosts: hosts.size,
    gpus: gpus.length,
    statuses,
    utilMean: utilN > 0 ? utilSum / utilN : null,
    attention,
  };
}

function byUrgency(a: FleetGpu, b: FleetGpu): number {
  const ra = a.reason === null ? 9 : URGENCY[a.reason];
  const rb = b.reason === null ? 9 : URGENCY[b.reason];
  if (ra !== rb) return ra - rb;
  // held idle before empty idle: someone holds it and is not using it (the expensive kind)
  if (a.status !== b.status)
    return a.status === "held_idle" ? -1 : b.status === "held_idle" ? 1 : 0;
  return 0; // stable: grid order otherwise
}

/** The index, GPU by GPU: the sync and the yielding build share it. */
class IndexBuilder {
  private readonly hostById: Map<string, HostLike>;
  private readonly temp = new Map<string, number>();
  private readonly groups = Object.fromEntries(
    GROUP_BYS.map((b) => [b, new Map()]),
  ) as FleetIndex["groups"];
  private readonly attention: FleetGpu[] = [];

  constructor(hosts: readonly HostLike[], current: readonly CurrentGpu[]) {
    this.hostById = new Map(hosts.map((h) => [h.id, h]));
    for (const c of current) if (c.tempCelsius !== null) this.temp.set(c.uuid, c.tempCelsius);
  }

  add(g: GridGpu): void {
    const host = this.hostById.get(g.hostId);
    const gpu: FleetGpu = { ...g, reason: attentionReason(g, host, this.temp.get(g.uuid) ?? null) };
    if (gpu.reason !== null) this.attention.push(gpu);
    for (const by of GROUP_BYS) {
      pushTo(this.groups[by], groupKey(by, g, host), gpu);
    }
  }

  finish(): FleetIndex {
    const { groups, attention } = this;
    attention.sort(byUrgency);
    const byReason = Object.fromEntries(ATTENTION_REASONS.map((r) => [r, 0])) as Record<
      AttentionReason,
      number
    >;
    for (const g of attention) if (g.reason !== null) byReason[g.reason] += 1;
    const summaries = Object.fromEntries(
      GROUP_BYS.map((by) => [
        by,
        [...groups[by]]
          .map(([key, gpus]) => summarizeGroup(key, gpus))
          .sort((a, b) => b.gpus - a.gpus || a.key.localeCompare(b.key)),
      ]),
    ) as FleetSummary["groups"];
    return {
      groups,
      attention,
      overview: {
        groups: summaries,
        attention: {
          total: attention.length,
          byReason,
          gpus: attention.slice(0, ATTENTION_PREVIEW),
        },
      },
    };
  }
}

/** Builds the groups, the problem list and the per-group index of a (scoped) snapshot. */
export function buildFleetIndex(
  hosts: readonly HostLike[],
  grid: readonly GridGpu[],
  current: readonly CurrentGpu[],
): FleetIndex {
  const b = new IndexBuilder(hosts, current);
  for (const g of grid) b.add(g);
  return b.finish();
}

/** GPUs indexed between two pauses of the yielding build. */
export const INDEX_CHUNK = 2000;

/**
 * The same index, calling `pause` (the cache passes a turn of the event loop) every INDEX_CHUNK
 * GPUs and before the summaries: at 10,000 GPUs the build is 50–80 ms of CPU on a loaded machine,
 * which requests arriving meanwhile would otherwise wait for in one piece.
 */
export async function buildFleetIndexYielding(
  hosts: readonly HostLike[],
  grid: readonly GridGpu[],
  current: readonly CurrentGpu[],
  pause: () => Promise<void>,
): Promise<FleetIndex> {
  const b = new IndexBuilder(hosts, current);
  for (const [i, g] of grid.entries()) {
    if (i > 0 && i % INDEX_CHUNK === 0) await pause();
    b.add(g);
  }
  await pause();
  return b.finish();
}

/** One page of a group's GPUs (or of the problem list); an unknown key is an empty group. */
export function fleetGpuPage(
  index: FleetIndex,
  q: { by: GroupBy | "attention"; key?: string | undefined; page: number; pageSize: number },
): {
  by: string;
  key: string;
  total: number;
  page: number;
  pageSize: number;
  pages: number;
  gpus: FleetGpu[];
} {
  const key = q.key ?? "all";
  let list: readonly FleetGpu[];
  if (q.by === "attention") {
    list = key === "all" ? index.attention : index.attention.filter((g) => g.reason === key);
  } else {
    list = index.groups[q.by].get(key) ?? [];
  }
  const start = (q.page - 1) * q.pageSize;
  return {
    by: q.by,
    key,
    total: list.length,
    page: q.page,
    pageSize: q.pageSize,
    pages: Math.ceil(list.length / q.pageSize),
    gpus: list.slice(start, start + q.pageSize),
  };
}
