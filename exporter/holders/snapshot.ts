// A snapshot of a remote index (Docker's containers, the kubelet's pods) refreshed in the
// background: at most one load at a time, at most every minIntervalMs, again after refreshMs
// or when asked for a key it lacks. A failed load keeps the last good snapshot until it is
// maxAgeMs old; past that lookups answer "absent". Nothing here can fail a collection.

export interface SnapshotOptions<S> {
  load: () => Promise<S>;
  refreshMs: number;
  minIntervalMs: number;
  maxAgeMs: number;
  now?: () => number;
  onError?: (err: unknown) => void;
}

export class RefreshingSnapshot<S> {
  private value?: S;
  private loadedAt = -Infinity;
  private triedAt = -Infinity;
  private loading?: Promise<void>;
  private readonly now: () => number;

  constructor(private readonly opts: SnapshotOptions<S>) {
    this.now = opts.now ?? Date.now;
  }

  /** The current snapshot, or undefined; `missing` asks for a refresh (rate limited). */
  current(missing = false): S | undefined {
    const now = this.now();
    const due = now - this.loadedAt >= this.opts.refreshMs || missing;
    if (due && !this.loading && now - this.triedAt >= this.opts.minIntervalMs) {
      this.triedAt = now;
      this.loading = this.opts
        .load()
        .then(
          (v) => {
            this.value = v;
            this.loadedAt = this.now();
          },
          (err: unknown) => this.opts.onError?.(err),
        )
        .finally(() => (this.loading = undefined));
    }
    return now - this.loadedAt <= this.opts.maxAgeMs ? this.value : undefined;
  }

  /** Resolves when no load is running (tests). */
  async settled(): Promise<void> {
    await this.loading;
  }
}
