import { MINUTE_MS } from "../core/time.ts";
import { scaleSettingsSchema, type ScaleSettings } from "../zod/schemas/policy.ts";

// The pure rules of a scale policy (docs/architecture.md "Domain rules"): which pool a host is in,
// and whether a pool's figures make a scale-out or scale-in signal, within the cool-down and the
// pool's min and max.

/** The host label naming a host's autoscaling group (or managed instance group, scale set). */
export const ASG_LABEL = "gpufleet.io/asg";

/** How much of a window's GPU time must be past the mark for the pool to "stay" there. */
export const SUSTAINED_SHARE = 0.9;

export interface Pool {
  key: string;
  /** the provider's group name, from the host label; null for an instance type and team pool */
  group: string | null;
}

/** A host's pool: its autoscaling group label, else its instance type and team. */
export function poolOf(h: {
  instanceType: string;
  team: string;
  labels: Record<string, string>;
}): Pool {
  const group = h.labels[ASG_LABEL] ?? h.labels[ASG_LABEL.replace(/[^A-Za-z0-9_]/g, "_")];
  if (group) return { key: `asg:${group}`, group };
  return { key: `type:${h.instanceType}|team:${h.team}`, group: null };
}

export interface PoolFigures {
  /** hosts of the pool up now: its current size */
  size: number;
  /** share of GPU time at or above highMark over the last highMinutes (null: no readings) */
  highShare: number | null;
  /** share of GPU time above lowMark over the last lowMinutes (null: no readings) */
  aboveLowShare: number | null;
}

export interface ScaleDecision {
  direction: "out" | "in";
  share: number;
  fromSize: number;
  toSize: number;
}

/**
 * Scale out by one when the pool stayed at or above the high mark (SUSTAINED_SHARE of its GPU
 * time over highMinutes), up to max; scale in by one when it stayed below the low mark over
 * lowMinutes, down to min; nothing while the last signal's cool-down runs.
 */
export function decideScale(
  s: ScaleSettings,
  f: PoolFigures,
  lastAt: Date | null,
  now: Date,
): ScaleDecision | null {
  if (lastAt && now.getTime() - lastAt.getTime() < s.cooldownMinutes * MINUTE_MS) return null;
  if (f.highShare !== null && f.highShare >= SUSTAINED_SHARE) {
    const toSize = Math.min(s.max, f.size + 1);
    return toSize > f.size
      ? { direction: "out", share: f.highShare, fromSize: f.size, toSize }
      : null;
  }
  if (f.aboveLowShare !== null && 1 - f.aboveLowShare >= SUSTAINED_SHARE) {
    const toSize = Math.max(s.min, f.size - 1);
    return toSize < f.size
      ? { direction: "in", share: 1 - f.aboveLowShare, fromSize: f.size, toSize }
      : null;
  }
  return null;
}

/** A stored policy's scale settings (null when not a scale policy or unreadable). */
export function parseScale(json: string | null): ScaleSettings | null {
  if (!json) return null;
  try {
    const r = scaleSettingsSchema.safeParse(JSON.parse(json));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}
