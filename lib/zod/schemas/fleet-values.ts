// The fleet schemas' enumerations and limits as plain values, without zod: the fleet page's
// first-load code (components/fleet/) imports them from here, so zod stays out of the browser's
// first load (issue 27). fleet.ts builds its schemas on these and re-exports them.

export const GPU_STATUSES = ["busy", "held_idle", "empty_idle", "mig", "not_reporting"] as const;
export type GpuStatus = (typeof GPU_STATUSES)[number];

export const ATTENTION_REASONS = ["interrupted", "unhealthy", "not_reporting", "idle"] as const;
export type AttentionReason = (typeof ATTENTION_REASONS)[number];

export const GROUP_BYS = ["team", "provider", "model", "state"] as const;
export type GroupBy = (typeof GROUP_BYS)[number];

/** Most GPUs of the problem list sent with the summary; the rest come from /api/fleet/gpus. */
export const ATTENTION_PREVIEW = 50;

/** The largest page /api/fleet/gpus answers. */
export const MAX_GPU_PAGE = 500;
