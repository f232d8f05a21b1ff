import type { CurrentGpu, ProcessInfo } from "@/lib/metrics/source.ts";
import type { GridGpu } from "@/lib/zod/schemas/fleet.ts";
import type { InstanceDetail } from "@/lib/zod/schemas/instance.ts";
import { isIdle } from "./classify-gpu.ts";
import { describeHolder, mergeHolders, type Holder } from "@/lib/core/holders.ts";
import { gpuShareMicros, type HostPrice } from "./summarize.ts";

// Pure shaping of one host's live GPUs, MIG slices and processes for the instance page.

type Detail = Pick<InstanceDetail, "gpus" | "mig" | "processes">;

export function shapeInstanceGpus(
  hostId: string,
  current: readonly CurrentGpu[],
  grid: readonly GridGpu[],
  processes: readonly ProcessInfo[],
  nameHolder: (h: Holder) => string = describeHolder,
): Detail {
  const mine = current.filter((g) => g.hostId === hostId);
  const whole = new Map(mine.filter((g) => g.parentUuid === null).map((g) => [g.uuid, g]));
  const status = new Map(grid.filter((g) => g.hostId === hostId).map((g) => [g.uuid, g]));
  // a GPU's holders: its own processes' and those of its MIG slices, largest memory first
  const heldBy = new Map<string, { holder: Holder; memBytes: number }[]>();
  for (const p of processes) {
    if (!p.holder) continue;
    const gpu = mine.find((g) => g.uuid === p.gpuUuid)?.parentUuid ?? p.gpuUuid;
    const list = heldBy.get(gpu) ?? [];
    list.push({ holder: p.holder, memBytes: p.usedMemoryBytes });
    heldBy.set(gpu, list);
  }
  const indexOf = (uuid: string) =>
    whole.get(uuid)?.index ?? whole.get(mine.find((g) => g.uuid === uuid)?.parentUuid ?? "")?.index;

  const gpus = [...whole.values()]
    .sort((a, b) => a.index - b.index)
    .map((g) => {
      const cell = status.get(g.uuid);
      return {
        uuid: g.uuid,
        index: g.index,
        name: g.name,
        util: g.util,
        memUsedBytes: cell?.memUsedBytes ?? g.memUsedBytes,
        memTotalBytes: g.memTotalBytes,
        powerWatts: g.powerWatts,
        tempCelsius: g.tempCelsius,
        processes: g.processes,
        smActive: g.smActive ?? null,
        reporting: g.reporting,
        lastSeen: g.lastSeen ? g.lastSeen.toISOString() : null,
        status: cell?.status ?? "not_reporting",
        holders: [
          ...new Set(mergeHolders(heldBy.get(g.uuid) ?? []).map((h) => nameHolder(h.holder))),
        ],
      };
    });

  const mig = mine
    .filter((g): g is CurrentGpu & { parentUuid: string } => g.parentUuid !== null)
    .map((g) => ({
      uuid: g.uuid,
      parentUuid: g.parentUuid,
      parentIndex: whole.get(g.parentUuid)?.index ?? null,
      profile: g.migProfile,
      memUsedBytes: g.memUsedBytes,
      memTotalBytes: g.memTotalBytes,
      reporting: g.reporting,
    }))
    .sort(
      (a, b) =>
        (a.parentIndex ?? 0) - (b.parentIndex ?? 0) ||
        a.uuid.localeCompare(b.uuid, "en", { numeric: true }),
    );

  const procs = processes
    .map((p) => ({
      gpuUuid: p.gpuUuid,
      gpuIndex: indexOf(p.gpuUuid) ?? null,
      pid: p.pid,
      processName: p.processName,
      usedMemoryBytes: p.usedMemoryBytes,
      holder: p.holder ? nameHolder(p.holder) : null,
    }))
    .sort((a, b) => (a.gpuIndex ?? 0) - (b.gpuIndex ?? 0) || b.usedMemoryBytes - a.usedMemoryBytes);

  return { gpus, mig, processes: procs };
}

/** What this host's GPUs that are idle right now cost per hour. */
export function idleNowPerHour(gpus: Detail["gpus"], price: HostPrice | null): bigint {
  if (!price) return 0n;
  const idle = gpus.filter((g) => isIdle(g.status)).length;
  return BigInt(idle) * gpuShareMicros(price, gpus.length);
}
