import { describeHolder, mergeHolders, type Holder, type HolderMemory } from "../core/holders.ts";
import { pushTo } from "../core/group.ts";
import type { MetricsSource, ProcessInfo } from "../metrics/source.ts";
import type { FleetGpu, PagedFleetGpu } from "@/lib/zod/schemas/fleet.ts";

// Who holds each GPU of one page of the fleet grid now (issue 24), for the cell's tooltip: its
// processes' holders (those of its MIG slices included), largest memory first, as the instance
// page names them. Read per page, for the hosts on it that run a process: a page is at most
// MAX_GPU_PAGE GPUs, so a bounded number of hosts, read a few at a time. The page is already
// narrowed to the caller's team scope; `nameHolder` shows pseudonyms where the viewer gets them.

const CONCURRENCY = 8;

/** Whether a grid GPU may have a holder: a process attached (MIG parents count theirs apart). */
function mayBeHeld(g: FleetGpu): boolean {
  return (g.processes ?? 0) > 0 || g.status === "mig";
}

async function processesOf(
  source: MetricsSource,
  hostIds: readonly string[],
): Promise<ProcessInfo[]> {
  const out: ProcessInfo[] = [];
  for (let i = 0; i < hostIds.length; i += CONCURRENCY) {
    const batch = hostIds.slice(i, i + CONCURRENCY);
    // a host whose processes cannot be read shows no holder, as on the instance page
    const lists = await Promise.all(
      batch.map((id) => source.processes(id).catch((): ProcessInfo[] => [])),
    );
    for (const list of lists) out.push(...list);
  }
  return out;
}

/** The page's GPUs with the names of who holds each now (none: an empty list). */
export async function withGridHolders(
  gpus: readonly FleetGpu[],
  source: MetricsSource,
  nameHolder: (h: Holder) => string = describeHolder,
): Promise<PagedFleetGpu[]> {
  const onPage = new Set(gpus.map((g) => g.uuid));
  const hostIds = [...new Set(gpus.filter(mayBeHeld).map((g) => g.hostId))];
  const heldBy = new Map<string, HolderMemory[]>();
  for (const p of await processesOf(source, hostIds)) {
    // ProcessInfo names the physical GPU, under MIG too (its slice is gpuInstanceId)
    if (!p.holder || !onPage.has(p.gpuUuid)) continue;
    pushTo(heldBy, p.gpuUuid, { holder: p.holder, memBytes: p.usedMemoryBytes });
  }
  return gpus.map((g) => ({
    ...g,
    holders: [...new Set(mergeHolders(heldBy.get(g.uuid) ?? []).map((h) => nameHolder(h.holder)))],
  }));
}
