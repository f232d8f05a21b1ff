// Caps the share of wall time a periodic job may take: after a run of D ms the job is skipped
// until D / maxShare has passed since that run started. A cheap job still runs every tick; an
// expensive one (alert windows over 10,000 GPUs) runs less often instead of saturating its source.

export interface DutyCycleOptions {
  /** the most of the wall time the job may use, 0-1 */
  maxShare: number;
  clock?: () => number;
}

export function dutyCycled<A extends unknown[]>(
  run: (...args: A) => Promise<void>,
  { maxShare, clock = Date.now }: DutyCycleOptions,
): (...args: A) => Promise<void> {
  let nextAt = Number.NEGATIVE_INFINITY;
  return async (...args: A) => {
    const started = clock();
    if (started < nextAt) return;
    try {
      await run(...args);
    } finally {
      nextAt = started + (clock() - started) / maxShare;
    }
  };
}
