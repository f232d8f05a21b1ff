import "server-only";
import { db } from "@/lib/db.ts";

// Failed sign-ins per email: the first few are free, then each attempt waits longer, and after
// LOCK_AFTER failures inside WINDOW the email is refused until LOCK_FOR has passed. A success
// clears the count. Keyed on the email (not the IP, which a client can vary) so guessing one
// account's password stays slow from anywhere.

export const FREE_FAILURES = 3;
export const LOCK_AFTER = 5;
export const WINDOW_MS = 15 * 60_000;
export const LOCK_FOR_MS = 15 * 60_000;
const DELAY_STEP_MS = 1000;

export function throttleKey(email: string): string {
  return `email:${email.trim().toLowerCase()}`;
}

export type ThrottleState =
  { kind: "open"; delayMs: number } | { kind: "locked"; retryAfterS: number };

export async function throttleState(email: string, now = new Date()): Promise<ThrottleState> {
  const row = await db.signInThrottle.findUnique({ where: { key: throttleKey(email) } });
  if (!row) return { kind: "open", delayMs: 0 };
  if (row.lockedUntil && row.lockedUntil > now) {
    return {
      kind: "locked",
      retryAfterS: Math.ceil((row.lockedUntil.getTime() - now.getTime()) / 1000),
    };
  }
  if (now.getTime() - row.firstFailAt.getTime() > WINDOW_MS) return { kind: "open", delayMs: 0 };
  const over = row.failures - FREE_FAILURES + 1;
  return { kind: "open", delayMs: over > 0 ? over * DELAY_STEP_MS : 0 };
}

export type Claim =
  { kind: "check"; attempt: number; delayMs: number } | Extract<ThrottleState, { kind: "locked" }>;

/**
 * Claims one sign-in attempt for the email before its password is checked: the attempt is
 * counted at once, with an atomic increment in the store, so parallel attempts (from one client or
 * several replicas) each get their own number and no more than LOCK_AFTER passwords are ever
 * checked inside the window. Past that the email is locked and the attempt refused unchecked.
 * A success clears the count (clearFailures); a failure locks when it was the LOCK_AFTER-th.
 */
export async function claimAttempt(email: string, now = new Date()): Promise<Claim> {
  const state = await throttleState(email, now);
  if (state.kind === "locked") return state;
  const key = throttleKey(email);
  await forgetExpired(now);
  // a count from an earlier window starts over (only the first of racing resets matches)
  await db.signInThrottle.updateMany({
    where: { key, firstFailAt: { lt: new Date(now.getTime() - WINDOW_MS) } },
    data: { failures: 0, firstFailAt: now, lockedUntil: null },
  });
  const row = await db.signInThrottle.upsert({
    where: { key },
    create: { key, failures: 1, firstFailAt: now },
    update: { failures: { increment: 1 } },
  });
  const attempt = row.failures;
  if (attempt > LOCK_AFTER) {
    const lockedUntil = new Date(now.getTime() + LOCK_FOR_MS);
    await db.signInThrottle.updateMany({
      where: { key, lockedUntil: null },
      data: { lockedUntil },
    });
    return { kind: "locked", retryAfterS: Math.ceil(LOCK_FOR_MS / 1000) };
  }
  const over = attempt - FREE_FAILURES;
  return { kind: "check", attempt, delayMs: over > 0 ? over * DELAY_STEP_MS : 0 };
}

const SWEEP_EVERY_MS = 60_000;
let lastSweep = Number.NEGATIVE_INFINITY;

/**
 * Rows whose window and lock have both passed say nothing a missing row does not: they are
 * deleted, so the table holds only the emails tried inside the last window or locked now.
 */
async function forgetExpired(now: Date): Promise<void> {
  // housekeeping only (an expired row reads as no row), so at most once a minute per process
  // rather than a delete on every sign-in; a clock that went back sweeps again
  const since = now.getTime() - lastSweep;
  if (since >= 0 && since < SWEEP_EVERY_MS) return;
  lastSweep = now.getTime();
  await db.signInThrottle.deleteMany({
    where: {
      firstFailAt: { lt: new Date(now.getTime() - WINDOW_MS) },
      OR: [{ lockedUntil: null }, { lockedUntil: { lte: now } }],
    },
  });
}

/** After a claimed attempt failed: locks the email when it was the LOCK_AFTER-th. */
export async function settleFailure(
  email: string,
  attempt: number,
  now = new Date(),
): Promise<boolean> {
  if (attempt < LOCK_AFTER) return false;
  await db.signInThrottle.updateMany({
    where: { key: throttleKey(email) },
    data: { lockedUntil: new Date(now.getTime() + LOCK_FOR_MS) },
  });
  return true;
}

export async function clearFailures(email: string): Promise<void> {
  await db.signInThrottle.deleteMany({ where: { key: throttleKey(email) } });
}
