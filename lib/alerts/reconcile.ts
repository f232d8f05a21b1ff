import "server-only";
import type { Db } from "../db.ts";
import { isUniqueViolation } from "../core/store-errors.ts";
import { channelsNotifiedOfFiring, enqueueNotifications } from "../notify/enqueue.ts";
import type { Condition } from "./facts.ts";

// Turns a rule's conditions into alert state. Every change is one conditional statement (no
// interactive transaction), so two processes evaluating at once cannot both win: the unique
// openKey allows one open alert per fingerprint, and reopen / resolve only match the state read.

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
  await db.alertEvent.create({ data: { alertId, from, to, at, note, by } });
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
  cooldownSeconds: number;
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

  for (const a of open) {
    if (seen.has(a.fingerprint)) continue;
    const done = await db.alert.updateMany({
      where: { id: a.id, openKey: a.fingerprint },
      data: { state: "resolved", endsAt: now, openKey: null },
    });
    if (done.count !== 1) continue;
    result.resolved++;
    await addEvent(db, a.id, a.state, "resolved", now, "condition cleared");
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
  if (last && last.state === "resolved" && last.endsAt && last.endsAt.getTime() > coolingSince) {
    // Resolved by a person: stay quiet for the cool-down even if the condition persists.
    if (last.resolvedBy !== null) return;
    let reopened;
    try {
      reopened = await db.alert.updateMany({
        where: { id: last.id, state: "resolved", openKey: null },
        data: {
          state: "firing",
          openKey: c.fingerprint,
          endsAt: null,
          summary: c.summary,
          details,
          severity: c.severity,
          acknowledgedBy: null,
          acknowledgedAt: null,
        },
      });
    } catch (e) {
      if (isUniqueViolation(e)) return;
      throw e;
    }
    if (reopened.count !== 1) return;
    result.fired++;
    await addEvent(
      db,
      last.id,
      "resolved",
      "firing",
      now,
      "condition returned within the cool-down: not notified again",
    );
    if (c.level !== undefined && c.level > levelOf(last.details) && !snoozed(last, now))
      result.queued += await enqueueNotifications(
        db,
        routable(last, c, hostname),
        firingTransition(c),
        now,
      );
    return;
  }
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
    );
}
