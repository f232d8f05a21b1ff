import "server-only";
import type { Db } from "../db.ts";
import { isUniqueViolation } from "../core/store-errors.ts";
import { routes } from "./route.ts";

// Alertmanager is a state sync, not a feed of transitions: Prometheus sends every active alert to
// each Alertmanager it knows on every evaluation, so a new or restarted one is complete within an
// interval. gpufleet does the same for alertmanager_api channels: each pass, every open alert in a
// channel's scope that the channel has not been told of (it opened before the channel existed, or
// while the channel was disabled, or the channel's scope or kinds changed) gets a firing
// notification queued for it. From then on it is the channel's like any other: delivered with
// retries, re-sent every interval while open (alertmanager-resend.ts), and its resolution goes to
// the channel too (channelsNotifiedOfFiring). A snoozed alert is not queued, as it would not be
// to any channel (lib/alerts/reconcile.ts); it is once the snooze ends and it is still open.

/** The transition a newly opened alert would have been queued with (a budget's level). */
export function firingTransitionOf(details: string): string {
  try {
    const level = (JSON.parse(details) as { level?: unknown }).level;
    return typeof level === "number" ? `firing:${level}` : "firing";
  } catch {
    return "firing";
  }
}

/** Queues the open alerts in scope that each enabled alertmanager_api channel was not told of. */
export async function backfillAlertmanagers(db: Db, now: Date): Promise<number> {
  const channels = await db.channel.findMany({
    where: { kind: "alertmanager_api", enabled: true },
    orderBy: { createdAt: "asc" },
  });
  if (channels.length === 0) return 0;
  const open = await db.alert.findMany({
    where: {
      state: { in: ["firing", "acknowledged"] },
      OR: [{ snoozedUntil: null }, { snoozedUntil: { lte: now } }],
    },
    select: {
      id: true,
      kind: true,
      team: true,
      project: true,
      hostId: true,
      details: true,
    },
    orderBy: { startsAt: "asc" },
  });
  if (open.length === 0) return 0;
  const hostIds = [...new Set(open.flatMap((a) => (a.hostId ? [a.hostId] : [])))];
  const hosts = new Map(
    (
      await db.host.findMany({
        where: { id: { in: hostIds } },
        select: { id: true, hostname: true },
      })
    ).map((h) => [h.id, h.hostname]),
  );
  let queued = 0;
  for (const c of channels) {
    const told = new Set(
      (
        await db.notification.findMany({
          where: {
            channelId: c.id,
            transition: { startsWith: "firing" },
            alert: { state: { in: ["firing", "acknowledged"] } },
          },
          select: { alertId: true },
        })
      ).map((n) => n.alertId),
    );
    for (const a of open) {
      if (told.has(a.id)) continue;
      const hostname = a.hostId ? (hosts.get(a.hostId) ?? null) : null;
      if (!routes(c, { ...a, hostname })) continue;
      try {
        await db.notification.create({
          data: {
            alertId: a.id,
            channelId: c.id,
            transition: firingTransitionOf(a.details),
            nextAttemptAt: now,
          },
        });
        queued++;
      } catch (e) {
        if (!isUniqueViolation(e)) throw e;
      }
    }
  }
  return queued;
}
