import "server-only";
import { db as defaultDb, type Db } from "../db.ts";
import { NotFoundError } from "../fleet/errors.ts";
import type { AlertDetail } from "../zod/schemas/alert.ts";
import { alertDto } from "./to-dto.ts";

export async function getAlert(
  id: string,
  { client = defaultDb, now = new Date() }: { client?: Db; now?: Date } = {},
): Promise<AlertDetail> {
  const a = await client.alert.findUnique({
    where: { id },
    include: {
      rule: { select: { name: true } },
      events: { orderBy: { at: "asc" } },
      notifications: {
        orderBy: { createdAt: "asc" },
        include: {
          channel: { select: { name: true } },
          attemptLog: { orderBy: { at: "asc" }, take: 50 },
        },
      },
    },
  });
  if (!a) throw new NotFoundError(`alert ${id}`);
  const host = a.hostId
    ? await client.host.findUnique({
        where: { id: a.hostId },
        select: { hostname: true, owner: true },
      })
    : null;
  return {
    ...alertDto(a, host ?? undefined, now),
    events: a.events.map((e) => ({
      id: e.id,
      from: e.from,
      to: e.to,
      by: e.by,
      note: e.note,
      at: e.at.toISOString(),
    })),
    notifications: a.notifications.map((n) => ({
      id: n.id,
      channelId: n.channelId,
      channelName: n.channel.name,
      transition: n.transition,
      status: n.status,
      attempts: n.attempts,
      nextAttemptAt: n.nextAttemptAt.toISOString(),
      lastError: n.lastError,
      deliveredAt: n.deliveredAt ? n.deliveredAt.toISOString() : null,
      attemptLog: n.attemptLog.map((t) => ({
        at: t.at.toISOString(),
        httpStatus: t.httpStatus,
        error: t.error,
        durationMs: t.durationMs,
      })),
    })),
  };
}
