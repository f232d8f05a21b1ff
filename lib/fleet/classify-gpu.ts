import { IDLE_UTIL } from "@/lib/core/idle.ts";
import type { GpuStatus } from "@/lib/zod/schemas/fleet.ts";

// How one GPU looks on the fleet grid. "Held but idle" (memory allocated or a process attached,
// SM idle) is the expensive kind of idle: someone holds the GPU and is not using it.

/** Framebuffer use above which a GPU counts as held even with no process listed (driver/context). */
export const HELD_MEMORY_BYTES = 512 * 1024 * 1024;

export interface ClassifyInput {
  reporting: boolean;
  util: number | null;
  memUsedBytes: number | null;
  processes: number | null;
  migSlices: number;
}

export function classifyGpu(g: ClassifyInput): GpuStatus {
  if (!g.reporting) return "not_reporting";
  if (g.migSlices > 0) return "mig";
  if (g.util === null) return "not_reporting";
  if (g.util >= IDLE_UTIL) return "busy";
  const held = (g.processes ?? 0) > 0 || (g.memUsedBytes ?? 0) > HELD_MEMORY_BYTES;
  return held ? "held_idle" : "empty_idle";
}

export function isIdle(status: GpuStatus): boolean {
  return status === "held_idle" || status === "empty_idle";
}
