import "server-only";
import { InvalidInputError, NotFoundError, parseOrThrow } from "../core/errors.ts";
import { db as defaultDb, type Db } from "../db.ts";
import {
  channelInputSchema,
  type ChannelDto,
  type ChannelInput,
  type ChannelUpdate,
} from "../zod/schemas/channel.ts";
import { parseEmailConfig, smtpUrl } from "../zod/schemas/email-channel.ts";
import { getChannel } from "./list-channels.ts";
import { parseKinds } from "./route.ts";
import {
  adminAllowsPrivate,
  refusedMessage,
  vetTarget,
  type AllowPrivate,
} from "./target-policy.ts";

export interface SaveChannelOptions {
  /** the admin's "allow private webhook targets" (tests pass their own) */
  allowPrivate?: AllowPrivate;
}

/** A refused target is a 400 on `url`; it is checked again at every send (DNS can change). */
async function assertTargetAllowed(url: string, allowPrivate: AllowPrivate): Promise<void> {
  const target = await vetTarget(url, allowPrivate);
  if (target.ok) return;
  const message = refusedMessage(target.reason);
  throw new InvalidInputError(`invalid channel: url: ${message}`, [{ path: "url", message }]);
}

/** The URL an input is sent to (vetted here and at every send): the webhook's, or the SMTP server's. */
function targetOf(c: ChannelInput): string {
  return c.email ? smtpUrl(c.email) : (c.url ?? "");
}

/** The target check runs on http(s) URLs: an SMTP server is checked as the same host and port. */
function vettable(target: string): string {
  return target.replace(/^smtps?:/, "http:");
}

function toRow(c: ChannelInput) {
  return {
    name: c.name,
    kind: c.kind,
    url: targetOf(c),
    config: JSON.stringify(c.email ?? {}),
    scopeKind: c.scopeKind,
    scopeValue: c.scopeKind === "fleet" ? "" : c.scopeValue,
    kinds: JSON.stringify(c.kinds),
    enabled: c.enabled,
  };
}

export async function createChannel(
  input: ChannelInput,
  client: Db = defaultDb,
  { allowPrivate = adminAllowsPrivate }: SaveChannelOptions = {},
): Promise<ChannelDto> {
  await assertTargetAllowed(vettable(targetOf(input)), allowPrivate);
  const row = await client.channel.create({ data: toRow(input) });
  return getChannel(row.id, client);
}

/**
 * The stored URL is kept unless the change names a new one (the API never returns it whole). Only
 * a new URL is checked, so a channel whose target is now refused can still be edited or disabled.
 */
export async function updateChannel(
  id: string,
  patch: ChannelUpdate,
  client: Db = defaultDb,
  { allowPrivate = adminAllowsPrivate }: SaveChannelOptions = {},
): Promise<ChannelDto> {
  const row = await client.channel.findUnique({ where: { id } });
  if (!row) throw new NotFoundError(`channel ${id}`);
  const email = row.kind === "email" ? parseEmailConfig(row.config) : null;
  const current = {
    name: row.name,
    kind: row.kind,
    ...(row.kind === "email" ? (email ? { email } : {}) : { url: row.url }),
    scopeKind: row.scopeKind,
    scopeValue: row.scopeValue,
    kinds: parseKinds(row.kinds),
    enabled: row.enabled,
  };
  const { url, email: newEmail, ...rest } = patch;
  const merged: Record<string, unknown> = {
    ...current,
    ...rest,
    ...(url !== undefined && url !== "" ? { url } : {}),
    ...(newEmail !== undefined ? { email: newEmail } : {}),
  };
  // a channel turned into (or out of) email drops the settings of its old kind
  if (merged.kind === "email") delete merged.url;
  else delete merged.email;
  const next = parseOrThrow(channelInputSchema, merged, "channel");
  const target = targetOf(next);
  if (target !== row.url) await assertTargetAllowed(vettable(target), allowPrivate);
  await client.channel.update({ where: { id }, data: toRow(next) });
  return getChannel(id, client);
}

export async function deleteChannel(id: string, client: Db = defaultDb): Promise<void> {
  const done = await client.channel.deleteMany({ where: { id } });
  if (done.count === 0) throw new NotFoundError(`channel ${id}`);
}
