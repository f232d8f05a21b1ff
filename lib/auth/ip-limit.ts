// Sign-in requests per client address, counted in memory before anything about the request is
// written to the store: past the limit a request is refused with 429 and leaves no trace (no
// throttle row, no audit row), so a client cycling through invented emails cannot grow the store
// faster than the limit. The address is the one lib/server/forwarded.ts put in x-forwarded-for
// (the socket's, or the client's as a trusted proxy reports it). Per process, like better-auth's
// own limiter behind it; the store-side throttle per email (throttle.ts) is what holds across
// replicas.

export const SIGN_IN_WINDOW_MS = 60_000;
export const SIGN_IN_MAX_PER_ADDRESS = 60;
/** Addresses remembered at most; past this the oldest windows are forgotten first. */
const MAX_ADDRESSES = 10_000;

export type AddressVerdict = { ok: true } | { ok: false; retryAfterS: number };

export class AddressLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly max = SIGN_IN_MAX_PER_ADDRESS,
    private readonly windowMs = SIGN_IN_WINDOW_MS,
  ) {}

  /** Counts one request from the address; refuses it when the address is over its limit. */
  take(address: string | null, now = Date.now()): AddressVerdict {
    const key = address ?? "unknown";
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      this.windows.delete(key);
      this.prune(now);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    if (w.count >= this.max) {
      return { ok: false, retryAfterS: Math.ceil((w.start + this.windowMs - now) / 1000) };
    }
    w.count++;
    return { ok: true };
  }

  reset(): void {
    this.windows.clear();
  }

  private prune(now: number): void {
    if (this.windows.size < MAX_ADDRESSES) return;
    for (const [key, w] of this.windows) {
      if (now - w.start >= this.windowMs) this.windows.delete(key);
    }
    // still full: forget the oldest windows (insertion order) rather than grow without bound
    for (const key of this.windows.keys()) {
      if (this.windows.size < MAX_ADDRESSES) break;
      this.windows.delete(key);
    }
  }
}

/** The limiter the sign-in route uses (one per server process). */
export const signInLimiter = new AddressLimiter();
