import "server-only";
import { parseOrThrow } from "../alerts/errors.ts";
import { db as defaultDb, type Db } from "../db.ts";
import { NotFoundError } from "../fleet/errors.ts";
import {
  channelInputSchema,
  type ChannelDto,
  type ChannelInput,
  type ChannelUpdate,
} from "../zod/schemas/channel.ts";
import { getChannel } from "./list-channels.ts";
import { parseKinds } from "./route.ts";

function toRow(c: ChannelInput) {
  return {
    name: c.name,
    kind: c.kind,
    url: c.url,
    scopeKind: c.scopeKind,
    scopeValue: c.scopeKind === "fleet" ? "" : c.scopeValue,
    kinds: JSON.stringify(c.kinds),
    enabled: c.enabled,
  };
}

export async function createChannel(
  input: ChannelInput,
  client: Db = defaultDb,
): Promise<ChannelDto> {
  const row = await client.channel.create({ data: toRow(input) });
  return getChannel(row.id, client);
}

/** The stored URL is kept unless the change names a new one (the API never returns it whole). */
export async function updateChannel(
  id: string,
  patch: ChannelUpdate,
  client: Db = defaultDb,
): Promise<ChannelDto> {
  const row = await client.channel.findUnique({ where: { id } });
  if (!row) throw new NotFoundError(`channel ${id}`);
  const current = {
    name: row.name,
    kind: row.kind,
    url: row.url,
    scopeKind: row.scopeKind,
    scopeValue: row.scopeValue,
    kinds: parseKinds(row.kinds),
    enabled: row.enabled,
  };
  const { url, ...rest } = patch;
  const merged = { ...current, ...rest, ...(url !== undefined && url !== "" ? { url } : {}) };
  const next = parseOrThrow(channelInputSchema, merged, "channel");
  await client.channel.update({ where: { id }, data: toRow(next) });
  return getChannel(id, client);
}

export async function deleteChannel(id: string, client: Db = defaultDb): Promise<void> {
  const done = await client.channel.deleteMany({ where: { id } });
  if (done.count === 0) throw new NotFoundError(`channel ${id}`);
}
