/**
 * Where SM active (DCGM profiling) exists, a GPU-minute under this share counts as idle whatever
 * `utilization.gpu` says (docs/architecture.md, "Domain rules").
 */
export const SM_ACTIVE_IDLE = 0.01;
