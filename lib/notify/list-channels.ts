import "server-only";
import { db as defaultDb, type Db } from "../db.ts";
import { NotFoundError } from "../core/errors.ts";
import type { ChannelDto, ChannelKind, ChannelList } from "../zod/schemas/channel.ts";
import type { RuleKind, RuleScope } from "../zod/schemas/rule.ts";
import { parseEmailConfig } from "../zod/schemas/email-channel.ts";
import { channelHealth } from "./channel-health.ts";
import { parseKinds } from "./route.ts";
import { redactUrl } from "./url.ts";

type ChannelRow = Awaited<ReturnType<Db["channel"]["findMany"]>>[number];

async function toDto(client: Db, c: ChannelRow): Promise<ChannelDto> {
  const [attempts, counts] = await Promise.all([
    client.notificationAttempt.findMany({
      // finished attempts only: one in flight (or cut short by a crash) has no outcome yet
      where: { notification: { channelId: c.id }, finishedAt: { not: null } },
      orderBy: { at: "desc" },
      take: 10,
      select: { at: true, error: true, httpStatus: true },
    }),
    client.notification.groupBy({
      by: ["status"],
      where: { channelId: c.id },
      _count: { _all: true },
    }),
  ]);
  const count = (...s: string[]) =>
    counts.filter((r) => s.includes(r.status)).reduce((n, r) => n + r._count._all, 0);
  return {
    id: c.id,
    name: c.name,
    kind: c.kind as ChannelKind,
    url: redactUrl(c.url),
    email: c.kind === "email" ? parseEmailConfig(c.config) : null,
    scopeKind: c.scopeKind as RuleScope,
    scopeValue: c.scopeValue,
    kinds: parseKinds(c.kinds) as RuleKind[],
    enabled: c.enabled,
    health: channelHealth({
      enabled: c.enabled,
      recentAttempts: attempts.map((a) => ({ at: a.at, ok: a.error === null, error: a.error })),
      pending: count("pending", "sending"),
      delivered: count("delivered"),
      failed: count("failed"),
    }),
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

export async function listChannels(client: Db = defaultDb): Promise<ChannelList> {
  const rows = await client.channel.findMany({ orderBy: { createdAt: "asc" } });
  return { channels: await Promise.all(rows.map((c) => toDto(client, c))) };
}

export async function getChannel(id: string, client: Db = defaultDb): Promise<ChannelDto> {
  const c = await client.channel.findUnique({ where: { id } });
  if (!c) throw new NotFoundError(`channel ${id}`);
  return toDto(client, c);
}
