import "server-only";
import type { Db } from "../db.ts";
import { isUniqueViolation } from "../core/store-errors.ts";
import { channelsNotifiedOfFiring, enqueueNotifications } from "../notify/enqueue.ts";
import { RETIRED_HOST_STATE } from "../ingest/host-state.ts";
import type { Condition } from "./facts.ts";

// Turns a rule's conditions into alert state. Every change is one conditional statement (no
// interactive transaction), so two processes evaluating at once cannot both win: the unique
// openKey allows one open alert per fingerprint, and reopen / resolve only match the state read.
//
// Flapping is damped as Alertmanager's resolve_timeout / Prometheus's keep_firing_for do: a
// cleared condition first makes the alert "resolving" (clearSince set, still firing to channels);
// it resolves only once the condition stayed clear for the hold. A condition that returns after
// that opens a NEW alert, notified, so each channel's last message always matches the state.

/** How long a condition must stay clear before its alert resolves, unless the rule says. */
export const DEFAULT_RESOLVE_HOLD_S = 300;

export interface ReconcileResult {
  fired: number;
  resolved: number;
  queued: number;
}

type AlertRow = Awaited<ReturnType<Db["alert"]["findMany"]>>[number];

function levelOf(details: string): number {
  try {
    const v = (JSON.parse(details) as { level?: unknown }).level;
    return typeof v === "number" ? v : 0;
  } catch {
    return 0;
  }
}

function firingTransition(c: Condition): string {
  return c.level === undefined ? "firing" : `firing:${c.level}`;
}

function snoozed(a: { snoozedUntil: Date | null }, now: Date): boolean {
  return a.snoozedUntil !== null && a.snoozedUntil.getTime() > now.getTime();
}

function detailsOf(c: Condition): string {
  return JSON.stringify(c.level === undefined ? c.details : { ...c.details, level: c.level });
}

export async function addEvent(
  db: Db,
  alertId: string,
  from: string | null,
  to: string,
  at: Date,
  note: string | null,
  by: string | null = null,
): Promise<void> {
  await db.alertEvent.createMany({ data: [{ alertId, from, to, at, note, by }] });
}

function routable(a: AlertRow, c: Condition | null, hostname: string | null) {
  return {
    id: a.id,
    kind: a.kind,
    team: c?.team ?? a.team,
    project: c?.project ?? a.project,
    hostId: a.hostId,
    hostname,
  };
}

export interface RuleRef {
  id: string;
  kind: string;
  /** after a person resolves an alert, a still-true condition stays quiet this long */
  cooldownSeconds: number;
  /** the resolve hold; DEFAULT_RESOLVE_HOLD_S when absent, 0 resolves at once */
  resolveHoldSeconds?: number;
}

export async function reconcileRule(
  db: Db,
  rule: RuleRef,
  conditions: readonly Condition[],
  now: Date,
  hostnames: ReadonlyMap<string, string> = new Map(),
): Promise<ReconcileResult> {
  const result: ReconcileResult = { fired: 0, resolved: 0, queued: 0 };
  const open = await db.alert.findMany({
    where: { ruleId: rule.id, state: { in: ["firing", "acknowledged"] } },
  });
  const openByFp = new Map(open.map((a) => [a.fingerprint, a]));
  const seen = new Set<string>();
  const nameOf = (hostId: string | null) => (hostId ? (hostnames.get(hostId) ?? null) : null);

  for (const c of conditions) {
    if (seen.has(c.fingerprint)) continue;
    seen.add(c.fingerprint);
    const current = openByFp.get(c.fingerprint);
    if (current) {
      await refresh(db, current, c, now, result, nameOf(current.hostId));
      continue;
    }
    await fire(db, rule, c, now, result, nameOf(c.hostId));
  }

  const holdMs = Math.max(0, rule.resolveHoldSeconds ?? DEFAULT_RESOLVE_HOLD_S) * 1000;
  const gone = await retiredHosts(db, open, seen);
  for (const a of open) {
    if (seen.has(a.fingerprint)) continue;
    const clearSince = a.clearSince ?? now;
    // a retired host cannot flap: its alerts resolve at once
    const hold = a.hostId !== null && gone.has(a.hostId) ? 0 : holdMs;
    if (now.getTime() - clearSince.getTime() < hold) {
      // resolving: still firing to channels until the condition stays clear for the hold
      if (a.clearSince === null)
        await db.alert.updateMany({
          where: { id: a.id, openKey: a.fingerprint, clearSince: null },
          data: { clearSince: now },
        });
      continue;
    }
    const done = await db.alert.updateMany({
      where: { id: a.id, openKey: a.fingerprint },
      data: { state: "resolved", endsAt: clearSince, openKey: null, clearSince },
    });
    if (done.count !== 1) continue;
    result.resolved++;
    await addEvent(
      db,
      a.id,
      a.state,
      "resolved",
      now,
      hold > 0
        ? `condition cleared at ${clearSince.toISOString()} and stayed clear`
        : "condition cleared",
    );
    if (!snoozed(a, now)) {
      const told = await channelsNotifiedOfFiring(db, a.id);
      if (told.size > 0)
        result.queued += await enqueueNotifications(
          db,
          routable(a, null, nameOf(a.hostId)),
          "resolved",
          now,
          told,
        );
    }
  }
  return result;
}

/** Hosts retired (or removed) among those of the open alerts whose condition cleared. */
async function retiredHosts(
  db: Db,
  open: readonly AlertRow[],
  seen: ReadonlySet<string>,
): Promise<Set<string>> {
  const ids = [
    ...new Set(open.flatMap((a) => (!seen.has(a.fingerprint) && a.hostId ? [a.hostId] : []))),
  ];
  if (ids.length === 0) return new Set();
  const live = await db.host.findMany({
    where: { id: { in: ids }, state: { not: RETIRED_HOST_STATE } },
    select: { id: true },
  });
  const alive = new Set(live.map((h) => h.id));
  return new Set(ids.filter((id) => !alive.has(id)));
}

/** An open alert whose condition still holds: keep its text current, escalate on a new level. */
async function refresh(
  db: Db,
  a: AlertRow,
  c: Condition,
  now: Date,
  result: ReconcileResult,
  hostname: string | null,
) {
  const details = detailsOf(c);
  const escalated = c.level !== undefined && c.level > levelOf(a.details);
  if (a.clearSince !== null) {
    // back within the resolve hold: it never stopped firing as far as channels know
    await db.alert.updateMany({
      where: { id: a.id, openKey: a.fingerprint },
      data: { clearSince: null },
    });
  }
  if (a.summary === c.summary && a.details === details && a.severity === c.severity) return;
  const done = await db.alert.updateMany({
    where: { id: a.id, openKey: a.fingerprint },
    data: { summary: c.summary, details, severity: c.severity },
  });
  if (done.count !== 1 || !escalated) return;
  await addEvent(db, a.id, a.state, a.state, now, `escalated: past the ${c.level} % threshold`);
  if (!snoozed(a, now))
    result.queued += await enqueueNotifications(
      db,
      routable(a, c, hostname),
      firingTransition(c),
      now,
      undefined,
      c.audience,
    );
}

/** A condition with no open alert: reopen a recently auto-resolved one, or open a new one. */
async function fire(
  db: Db,
  rule: RuleRef,
  c: Condition,
  now: Date,
  result: ReconcileResult,
  hostname: string | null,
) {
  const last = await db.alert.findFirst({
    where: { fingerprint: c.fingerprint },
    orderBy: { startsAt: "desc" },
  });
  const details = detailsOf(c);
  const coolingSince = now.getTime() - rule.cooldownSeconds * 1000;
  // Resolved by a person: stay quiet for the cool-down even if the condition persists. One that
  // resolved by itself was told to channels as resolved, so its return is a new, notified alert.
  if (
    last &&
    last.state === "resolved" &&
    last.resolvedBy !== null &&
    last.endsAt &&
    last.endsAt.getTime() > coolingSince
  )
    return;
  const inheritSnooze = last && snoozed(last, now) ? last.snoozedUntil : null;
  let created;
  try {
    created = await db.alert.create({
      data: {
        ruleId: rule.id,
        fingerprint: c.fingerprint,
        openKey: c.fingerprint,
        kind: rule.kind,
        severity: c.severity,
        hostId: c.hostId,
        gpuUuid: c.gpuUuid,
        team: c.team,
        project: c.project,
        state: "firing",
        summary: c.summary,
        details,
        startsAt: now,
        snoozedUntil: inheritSnooze,
      },
    });
  } catch (e) {
    if (isUniqueViolation(e)) return; // another evaluator opened it first
    throw e;
  }
  result.fired++;
  await addEvent(
    db,
    created.id,
    null,
    "firing",
    now,
    inheritSnooze ? "snoozed: not notified" : null,
  );
  if (!inheritSnooze)
    result.queued += await enqueueNotifications(
      db,
      routable(created, c, hostname),
      firingTransition(c),
      now,
      undefined,
      c.audience,
    );
}
