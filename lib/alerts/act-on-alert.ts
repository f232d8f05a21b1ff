import "server-only";
import { db as defaultDb, type Db } from "../db.ts";
import { NotFoundError } from "../fleet/errors.ts";
import { channelsNotifiedOfFiring, enqueueNotifications } from "../notify/enqueue.ts";
import { ConflictError } from "./errors.ts";
import { addEvent } from "./reconcile.ts";

// A person acting on an alert: acknowledge, snooze, resolve. Each is one conditional update on
// the state that was read, recorded as an AlertEvent with who did it.

interface Opts {
  client?: Db;
  now?: Date;
}

async function load(client: Db, id: string) {
  const a = await client.alert.findUnique({ where: { id } });
  if (!a) throw new NotFoundError(`alert ${id}`);
  return a;
}

export async function acknowledgeAlert(
  id: string,
  by: string,
  note: string | undefined,
  { client = defaultDb, now = new Date() }: Opts = {},
): Promise<void> {
  const a = await load(client, id);
  if (a.state === "acknowledged") return;
  if (a.state !== "firing") throw new ConflictError(`alert is ${a.state}, not firing`);
  const done = await client.alert.updateMany({
    where: { id, state: "firing" },
    data: { state: "acknowledged", acknowledgedBy: by, acknowledgedAt: now },
  });
  if (done.count === 1) await addEvent(client, id, "firing", "acknowledged", now, note ?? null, by);
}

export async function snoozeAlert(
  id: string,
  by: string,
  until: Date,
  note: string | undefined,
  { client = defaultDb, now = new Date() }: Opts = {},
): Promise<void> {
  const a = await load(client, id);
  if (until.getTime() <= now.getTime()) throw new ConflictError("snooze must end in the future");
  await client.alert.update({ where: { id }, data: { snoozedUntil: until } });
  await addEvent(
    client,
    id,
    a.state,
    a.state,
    now,
    `snoozed until ${until.toISOString()}${note ? `: ${note}` : ""}`,
    by,
  );
}

export async function resolveAlert(
  id: string,
  by: string,
  note: string | undefined,
  { client = defaultDb, now = new Date() }: Opts = {},
): Promise<void> {
  const a = await load(client, id);
  if (a.state === "resolved") return;
  const done = await client.alert.updateMany({
    where: { id, state: { in: ["firing", "acknowledged"] } },
    data: { state: "resolved", endsAt: now, openKey: null, resolvedBy: by },
  });
  if (done.count !== 1) return;
  await addEvent(client, id, a.state, "resolved", now, note ?? "resolved by hand", by);
  const snoozed = a.snoozedUntil !== null && a.snoozedUntil.getTime() > now.getTime();
  const told = await channelsNotifiedOfFiring(client, id);
  if (!snoozed && told.size > 0) {
    const host = a.hostId
      ? await client.host.findUnique({ where: { id: a.hostId }, select: { hostname: true } })
      : null;
    await enqueueNotifications(
      client,
      { ...a, hostname: host?.hostname ?? null },
      "resolved",
      now,
      told,
    );
  }
}
