// A bounded cache filled in the background: get() answers at once from what is known and
// queues a lookup for what is not (or is older than its TTL). Lookups run a few at a time, each
// key at most once at a time; a failed one is not retried before errorTtlMs. Used for uid → user
// name (getent) and Slurm job → user/account (scontrol): nothing is spawned on the scrape path,
// and nothing is spawned per collection for a key already known.

export interface AsyncCacheOptions<K, V> {
  lookup: (key: K) => Promise<V>;
  /** entries kept (least recently used go first); also bounds the queue */
  max: number;
  ttlMs: number;
  errorTtlMs: number;
  concurrency: number;
  now?: () => number;
  onError?: (key: K, err: unknown) => void;
}

interface Entry<V> {
  /** absent while only an error is known */
  value?: { v: V };
  expiresAt: number;
}

export class AsyncCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private readonly queue: K[] = [];
  private readonly queued = new Set<K>();
  private running = 0;
  private idle: (() => void)[] = [];
  private readonly now: () => number;

  constructor(private readonly opts: AsyncCacheOptions<K, V>) {
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The known value (even a stale one, while its refresh runs); undefined until looked up. */
  get(key: K): V | undefined {
    const e = this.entries.get(key);
    if (e) {
      // most recently used last
      this.entries.delete(key);
      this.entries.set(key, e);
    }
    if (!e || this.now() >= e.expiresAt) this.enqueue(key);
    return e?.value?.v;
  }

  /** Store a value known without a lookup (a table given up front); it expires like any other. */
  set(key: K, value: V): void {
    this.store(key, { value: { v: value }, expiresAt: this.now() + this.opts.ttlMs });
  }

  /** Resolves once no lookup is queued or running (tests, benchmarks). */
  settled(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private enqueue(key: K): void {
    if (this.queued.has(key) || this.queue.length >= this.opts.max) return;
    this.queued.add(key);
    this.queue.push(key);
    this.pump();
  }

  private pump(): void {
    while (this.running < this.opts.concurrency && this.queue.length > 0) {
      const key = this.queue.shift() as K;
      this.running += 1;
      void this.run(key).finally(() => {
        this.queued.delete(key);
        this.running -= 1;
        this.pump();
        if (this.running === 0 && this.queue.length === 0) {
          for (const resolve of this.idle.splice(0)) resolve();
        }
      });
    }
  }

  private async run(key: K): Promise<void> {
    const { lookup, ttlMs, errorTtlMs } = this.opts;
    try {
      const v = await lookup(key);
      this.store(key, { value: { v }, expiresAt: this.now() + ttlMs });
    } catch (err) {
      this.opts.onError?.(key, err);
      const prev = this.entries.get(key);
      // keep serving what was known; try again after errorTtlMs
      this.store(key, { value: prev?.value, expiresAt: this.now() + errorTtlMs });
    }
  }

  private store(key: K, e: Entry<V>): void {
    this.entries.delete(key);
    this.entries.set(key, e);
    while (this.entries.size > this.opts.max) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }
}
