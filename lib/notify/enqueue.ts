import "server-only";
import { isUniqueViolation } from "../core/store-errors.ts";
import type { Db } from "../db.ts";
import { routes, type RoutableAlert } from "./route.ts";

// Queues one Notification per routed channel for an alert transition. The unique key
// (alertId, channelId, transition) makes a second enqueue (restart, other replica) a no-op.

export async function enqueueNotifications(
  db: Db,
  alert: RoutableAlert & { id: string },
  transition: string,
  now: Date,
  onlyChannels?: ReadonlySet<string>,
): Promise<number> {
  const channels = await db.channel.findMany({ where: { enabled: true } });
  let queued = 0;
  for (const c of channels) {
    if (onlyChannels && !onlyChannels.has(c.id)) continue;
    if (!routes(c, alert)) continue;
    try {
      await db.notification.create({
        data: { alertId: alert.id, channelId: c.id, transition, nextAttemptAt: now },
      });
      queued++;
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
    }
  }
  return queued;
}

/** Channels that were told an alert fired: its "resolved" goes to exactly those. */
export async function channelsNotifiedOfFiring(db: Db, alertId: string): Promise<Set<string>> {
  const rows = await db.notification.findMany({
    where: { alertId, transition: { startsWith: "firing" } },
    select: { channelId: true },
  });
  return new Set(rows.map((r) => r.channelId));
}
