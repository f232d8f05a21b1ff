// A full garbage collection after a collection tick, at most once per `minIntervalMs`, when node
// runs with --expose-gc (the flags the Dockerfile, the systemd unit and the benchmark use). V8
// lets the old generation grow to about twice what is live before it collects; for an exporter
// whose live heap is ~8 MiB and whose garbage is the tick's rendering, collecting right after the
// render keeps the committed heap near what is live: ~7 MiB less resident at 64 GPUs, for ~1 % of
// a core at 1 s collection (bench/README.md, exporter). Without --expose-gc it does nothing.

export type GcFn = () => void;

export interface HeapTrim {
  /** whether collections happen (node was started with --expose-gc) */
  readonly active: boolean;
  /** Called when a tick has rendered; collects unless one ran less than minIntervalMs ago. */
  afterTick(): void;
}

export const HEAP_TRIM_MIN_INTERVAL_MS = 2000;

export function createHeapTrim(
  gc: GcFn | undefined = exposedGc(),
  minIntervalMs = HEAP_TRIM_MIN_INTERVAL_MS,
  now: () => number = () => performance.now(),
): HeapTrim {
  let last = -Infinity;
  return {
    active: gc !== undefined,
    afterTick() {
      if (!gc) return;
      const t = now();
      if (t - last < minIntervalMs) return;
      last = t;
      gc();
    },
  };
}

/** `globalThis.gc` as --expose-gc defines it, else undefined. */
export function exposedGc(): GcFn | undefined {
  const gc: unknown = (globalThis as { gc?: unknown }).gc;
  return typeof gc === "function" ? () => (gc as () => void)() : undefined;
}
