import "server-only";
import { isUniqueViolation } from "../core/store-errors.ts";
import type { Db } from "../db.ts";
import { planDeliveries, type Audience, type Delivery } from "./audience.ts";
import { routes, type RoutableAlert } from "./route.ts";

// Queues one Notification per delivery of an alert transition: per routed channel, or per person
// on a channel when the alert has an audience (audience.ts: an idle GPU's holder, then its host's
// owner). The unique key (alertId, channelId, transition, recipient) makes a second enqueue
// (restart, other replica) a no-op.

export async function enqueueNotifications(
  db: Db,
  alert: RoutableAlert & { id: string },
  transition: string,
  now: Date,
  onlyChannels?: ReadonlySet<string>,
  audience?: Audience,
): Promise<number> {
  const channels = await db.channel.findMany({
    where: { enabled: true },
    orderBy: { createdAt: "asc" },
  });
  const routed = channels.filter(
    (c) => (!onlyChannels || onlyChannels.has(c.id)) && routes(c, alert),
  );
  // a resolution goes to whoever heard of the firing: the same people on the same channels
  const deliveries: Delivery[] = onlyChannels
    ? await toldOf(db, alert.id, routed)
    : planDeliveries(routed, channels, audience);
  let queued = 0;
  for (const d of deliveries) {
    try {
      await db.notification.create({
        data: {
          alertId: alert.id,
          channelId: d.channelId,
          recipient: d.recipient,
          transition,
          nextAttemptAt: now,
        },
      });
      queued++;
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
    }
  }
  return queued;
}

/** The recipients each channel was told of the firing; a channel not told yet: its own audience. */
async function toldOf(
  db: Db,
  alertId: string,
  channels: readonly { id: string }[],
): Promise<Delivery[]> {
  const rows = await db.notification.findMany({
    where: {
      alertId,
      transition: { startsWith: "firing" },
      channelId: { in: channels.map((c) => c.id) },
    },
    select: { channelId: true, recipient: true },
  });
  return channels.flatMap((c) => {
    const told = [...new Set(rows.filter((r) => r.channelId === c.id).map((r) => r.recipient))];
    return (told.length > 0 ? told : [""]).map((recipient) => ({ channelId: c.id, recipient }));
  });
}

/** Channels that were told an alert fired: its "resolved" goes to exactly those. */
export async function channelsNotifiedOfFiring(db: Db, alertId: string): Promise<Set<string>> {
  const rows = await db.notification.findMany({
    where: { alertId, transition: { startsWith: "firing" } },
    select: { channelId: true },
  });
  return new Set(rows.map((r) => r.channelId));
}
