import type { CurrentGpu } from "@/lib/metrics/source.ts";
import type { GridGpu } from "@/lib/zod/schemas/fleet.ts";
import { classifyGpu } from "./classify-gpu.ts";

/** Whole GPUs (MIG slices folded into their parent), host by host, in index order. */
export function buildGrid(current: readonly CurrentGpu[]): GridGpu[] {
  const slices = new Map<string, { count: number; memUsed: number | null }>();
  for (const g of current) {
    if (g.parentUuid === null) continue;
    const s = slices.get(g.parentUuid) ?? { count: 0, memUsed: null };
    s.count += 1;
    if (g.memUsedBytes !== null) s.memUsed = (s.memUsed ?? 0) + g.memUsedBytes;
    slices.set(g.parentUuid, s);
  }
  return current
    .filter((g) => g.parentUuid === null)
    .map((g) => {
      const mig = slices.get(g.uuid);
      const migSlices = mig?.count ?? 0;
      // A MIG parent often reports no memory of its own; its slices' memory is what is in use.
      const memUsedBytes = g.memUsedBytes ?? (g.reporting ? (mig?.memUsed ?? null) : null);
      return {
        uuid: g.uuid,
        hostId: g.hostId,
        hostname: g.hostname,
        index: g.index,
        name: g.name,
        util: g.util,
        memUsedBytes,
        memTotalBytes: g.memTotalBytes,
        processes: g.processes,
        migSlices,
        status: classifyGpu({ ...g, memUsedBytes, migSlices }),
      };
    })
    .sort((a, b) =>
      a.hostname === b.hostname ? a.index - b.index : a.hostname < b.hostname ? -1 : 1,
    );
}

export interface HostGroup<G extends GridGpu = GridGpu> {
  hostId: string;
  hostname: string;
  gpus: G[];
}

/** Groups a sorted grid by host, keeping order. */
export function groupByHost<G extends GridGpu>(grid: readonly G[]): HostGroup<G>[] {
  const groups: HostGroup<G>[] = [];
  let current: HostGroup<G> | undefined;
  for (const g of grid) {
    if (!current || current.hostId !== g.hostId) {
      current = { hostId: g.hostId, hostname: g.hostname, gpus: [] };
      groups.push(current);
    }
    current.gpus.push(g);
  }
  return groups;
}
