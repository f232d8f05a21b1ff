import "server-only";
import { inTeamScope, type TeamScope, scopedId, type ScopedId } from "../auth/scope.ts";
import { db as defaultDb, type Db } from "../db.ts";
import { NotFoundError } from "../core/errors.ts";
import type { AlertDetail } from "../zod/schemas/alert.ts";
import { alertDto } from "./to-dto.ts";

/**
 * Throws NotFoundError unless the alert is visible within `scope`: on a host of one of its teams
 * (a fleet-wide alert, with no host, is not). Free when unlimited.
 */
/** The alert's id once it is known to be within `scope`; NotFoundError (404) otherwise. */
export async function alertInScope(
  id: string,
  scope: TeamScope,
  client: Db = defaultDb,
): Promise<ScopedId<"alert">> {
  if (scope === null) return scopedId(id);
  const a = await client.alert.findUnique({ where: { id }, select: { hostId: true } });
  const host = a?.hostId
    ? await client.host.findUnique({ where: { id: a.hostId }, select: { team: true } })
    : null;
  if (!host || !inTeamScope(scope, host.team)) throw new NotFoundError(`alert ${id}`);
  return scopedId(id);
}

/** "email:ada@x.io" → "email ada@x.io", "slack:U0…" → "Slack <@U0…>", the person named by `person`. */
export function recipientLabel(recipient: string, person: (name: string) => string): string | null {
  const at = recipient.indexOf(":");
  if (recipient === "" || at < 0) return null;
  const kind = recipient.slice(0, at);
  const who = person(recipient.slice(at + 1));
  return kind === "slack" ? `Slack <@${who}>` : `${kind} ${who}`;
}

export async function getAlert(
  id: string,
  {
    client = defaultDb,
    now = new Date(),
    scope,
    person = (name) => name,
  }: {
    client?: Db;
    now?: Date;
    scope: TeamScope;
    /** how the viewer sees a person (a pseudonym for viewers when the admin chose so) */
    person?: (name: string) => string;
  },
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
  const host = a?.hostId
    ? await client.host.findUnique({
        where: { id: a.hostId },
        select: { hostname: true, owner: true, team: true },
      })
    : null;
  if (!a || (scope !== null && (host === null || !inTeamScope(scope, host.team)))) {
    throw new NotFoundError(`alert ${id}`);
  }
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
      recipient: recipientLabel(n.recipient, person),
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
