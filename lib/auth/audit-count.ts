import "server-only";
import { createHash } from "node:crypto";
import { db } from "@/lib/db.ts";
import { isUniqueViolation } from "@/lib/core/store-errors.ts";

// Refused sign-ins are audited as one row per actor, action and window, not one row per request:
// a client repeating a refused sign-in cannot add rows faster than the windows pass. The row's id
// is derived from (action, actor, window), so every replica finds the same row. A failed password
// raises the row's count by compare-and-swap on the detail text, so concurrent failures each
// count once on SQLite and PostgreSQL alike (the throttle lets at most LOCK_AFTER of them race);
// an attempt refused unchecked while the email is locked only makes sure its row exists, so
// hammering a locked email costs the store one row and no writes after it.

export const COUNT_WINDOW_MS = 15 * 60_000;
/** The actor of a refusal row for emails no account has (counted per client address). */
export const UNKNOWN_EMAIL = "(an email with no account)";
const MAX_TRIES = 20;

export type CountedAudit = {
  actor: string;
  action: string;
  ip: string | null;
  /** what the row counts per window; the actor when not given (an email with no user: its address) */
  key?: string;
  /** merged into the row's detail; `locked: true` stays once set */
  locked?: boolean;
};

type CountedDetail = { count: number; lastAt: string; locked?: boolean };

export function countedAuditId(action: string, actor: string, now: Date): string {
  const window = Math.floor(now.getTime() / COUNT_WINDOW_MS);
  const digest = createHash("sha256").update(`${action}\n${actor}\n${window}`).digest("base64url");
  return `count_${digest.slice(0, 32)}`;
}

function readCount(detail: string): CountedDetail | null {
  try {
    const v = JSON.parse(detail) as Partial<CountedDetail>;
    return typeof v.count === "number" ? (v as CountedDetail) : null;
  } catch {
    return null;
  }
}

/** Writes the (action, actor, window) row unless it exists: no count, no write after the first. */
export async function recordOnce(
  input: CountedAudit & { detail: Record<string, unknown> },
  now = new Date(),
): Promise<void> {
  const id = countedAuditId(input.action, input.key ?? input.actor, now);
  if (await db.auditEvent.findUnique({ where: { id }, select: { id: true } })) return;
  try {
    await db.auditEvent.create({
      data: {
        id,
        at: now,
        actor: input.actor.slice(0, 200),
        action: input.action,
        detail: JSON.stringify(input.detail),
        ip: input.ip,
      },
    });
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
  }
}

/** Adds one to the (action, actor, window) row, creating it at the window's first event. */
export async function recordCounted(input: CountedAudit, now = new Date()): Promise<void> {
  const id = countedAuditId(input.action, input.key ?? input.actor, now);
  for (let i = 0; i < MAX_TRIES; i++) {
    const row = await db.auditEvent.findUnique({ where: { id } });
    if (!row) {
      const detail: CountedDetail = { count: 1, lastAt: now.toISOString() };
      if (input.locked) detail.locked = true;
      try {
        await db.auditEvent.create({
          data: {
            id,
            at: now,
            actor: input.actor.slice(0, 200),
            action: input.action,
            detail: JSON.stringify(detail),
            ip: input.ip,
          },
        });
        return;
      } catch (e) {
        if (!isUniqueViolation(e)) throw e;
        continue; // another request created it first: count on theirs
      }
    }
    const prev = readCount(row.detail) ?? { count: 0, lastAt: now.toISOString() };
    const next: CountedDetail = { count: prev.count + 1, lastAt: now.toISOString() };
    if (prev.locked || input.locked) next.locked = true;
    const { count } = await db.auditEvent.updateMany({
      where: { id, detail: row.detail },
      data: { detail: JSON.stringify(next), ip: input.ip ?? row.ip },
    });
    if (count === 1) return;
  }
  throw new Error(`audit row ${id}: too many concurrent updates`);
}
