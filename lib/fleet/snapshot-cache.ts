// A value rebuilt in the background at most once per interval (stale-while-revalidate, one build
// at a time), so readers get the last result at once instead of each waiting on the source.
// Pure and clock-injected: the fleet wiring lives in fleet-cache.ts.

export interface CacheEntry<T> {
  value: T;
  /** epoch ms when the build that produced `value` started (the data is as of then) */
  at: number;
  /** why the latest build failed, while `value` is the last good one; null after a success */
  error: string | null;
}

export interface SnapshotCacheOptions<T> {
  load: () => Promise<T>;
  /** a read starts a background rebuild once this long has passed since the last attempt */
  refreshAfterMs: number;
  /** a value older than this is not served while a rebuild can still replace it... */
  maxStaleMs: number;
  /** ...unless the rebuild takes longer than this: then the old value is served (marked by its
   * age) rather than holding the request; under load a rebuild can take many seconds */
  maxWaitMs?: number;
  clock?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface SnapshotCache<T> {
  /** The cached entry; waits only for the first build or when the entry is too old. */
  get(): Promise<CacheEntry<T>>;
  /** Starts a rebuild unless one is running; resolves with the entry it leaves. */
  refresh(): Promise<CacheEntry<T>>;
  /** The current entry without reading it (no refresh, not counted as a read). */
  peek(): CacheEntry<T> | null;
  /** epoch ms of the last get(), 0 if never read */
  lastReadAt(): number;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function createSnapshotCache<T>(opts: SnapshotCacheOptions<T>): SnapshotCache<T> {
  const clock = opts.clock ?? Date.now;
  const maxWaitMs = opts.maxWaitMs ?? 2000;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref()));
  let entry: CacheEntry<T> | null = null;
  let inflight: Promise<CacheEntry<T>> | null = null;
  let lastAttemptAt = Number.NEGATIVE_INFINITY;
  let lastRead = 0;

  function refresh(): Promise<CacheEntry<T>> {
    if (inflight) return inflight;
    const started = clock();
    lastAttemptAt = started;
    inflight = (async () => {
      try {
        const value = await opts.load();
        entry = { value, at: started, error: null };
        return entry;
      } catch (e) {
        // keep serving the last good value, marked with why it could not be replaced
        if (!entry) throw e;
        entry = { ...entry, error: message(e) };
        return entry;
      } finally {
        inflight = null;
      }
    })();
    return inflight;
  }

  async function get(): Promise<CacheEntry<T>> {
    const now = clock();
    lastRead = now;
    if (!entry) return refresh();
    const due = now - lastAttemptAt >= opts.refreshAfterMs;
    if (now - entry.at <= opts.maxStaleMs) {
      if (due) refresh().catch(() => undefined);
      return entry;
    }
    // Too old: wait a little for a rebuild, unless the last one just failed (then serve it marked
    // stale); a rebuild slower than maxWaitMs leaves the old value to be served meanwhile.
    if (!inflight && !due) return entry;
    const old = entry;
    const rebuilt = inflight ?? refresh();
    return Promise.race([rebuilt, sleep(maxWaitMs).then(() => entry ?? old)]);
  }

  return { get, refresh, peek: () => entry, lastReadAt: () => lastRead };
}
