/** SM utilization under which a GPU counts as idle (the house default, 5 %). */
export const IDLE_UTIL = 0.05;

/**
 * Where SM active (DCGM profiling) exists, a GPU-minute under this share counts as idle whatever
 * `utilization.gpu` says (docs/architecture.md, "Domain rules").
 */
export const SM_ACTIVE_IDLE = 0.01;
