import "server-only";
import { hostIdsInScope, scopedId, type ScopedId, type TeamScope } from "../auth/scope.ts";
import { db as defaultDb, type Db } from "../db.ts";
import { ConflictError, NotFoundError } from "../core/errors.ts";
import { channelsNotifiedOfFiring, enqueueNotifications } from "../notify/enqueue.ts";
import type { AlertBulkItemResult } from "../zod/schemas/alert.ts";
import { addEvent } from "./reconcile.ts";

// A person acting on an alert: acknowledge, snooze, resolve. Each is one conditional update on
// the state that was read, recorded as an AlertEvent with who did it.

interface Opts {
  client?: Db;
  now?: Date;
}

/** Alert ids the caller's team scope was checked for (alertInScope): what every action takes. */
export type AlertId = ScopedId<"alert">;

async function load(client: Db, id: AlertId) {
  const a = await client.alert.findUnique({ where: { id } });
  if (!a) throw new NotFoundError(`alert ${id}`);
  return a;
}

export async function acknowledgeAlert(
  id: AlertId,
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
  id: AlertId,
  by: string,
  until: Date,
  note: string | undefined,
  { client = defaultDb, now = new Date() }: Opts = {},
): Promise<void> {
  const a = await load(client, id);
  if (until.getTime() <= now.getTime()) throw new ConflictError("snooze must end in the future");
  // updateMany: the row is not read back (nothing uses it); gone since load() is a 404 as before
  const done = await client.alert.updateMany({ where: { id }, data: { snoozedUntil: until } });
  if (done.count !== 1) throw new NotFoundError(`alert ${id}`);
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
  id: AlertId,
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

export type BulkAct = { action: "acknowledge" | "resolve" } | { action: "snooze"; until: Date };

/**
 * One action on many alerts, each on its own as the single routes do it (same checks, same
 * AlertEvent per alert): an alert in the wrong state, unknown, or outside `scope` (a team-limited
 * user's teams; fleet-wide alerts have no host and are outside every limited scope) fails alone
 * with its reason, the rest go ahead. Outside the scope reads exactly like unknown, as the single
 * routes' 404 does. Ids are taken once each, in the order given.
 */
export async function actOnAlerts(
  ids: readonly string[],
  act: BulkAct,
  by: string,
  note: string | undefined,
  { scope, client = defaultDb, now = new Date() }: Opts & { scope: TeamScope },
): Promise<AlertBulkItemResult[]> {
  const unique = [...new Set(ids)];
  const hostIds = await hostIdsInScope(client, scope);
  let visible: Set<string> | null = null;
  if (hostIds !== null) {
    const rows = await client.alert.findMany({
      where: { id: { in: unique }, hostId: { in: hostIds } },
      select: { id: true },
    });
    visible = new Set(rows.map((r) => r.id));
  }
  const out: AlertBulkItemResult[] = [];
  for (const id of unique) {
    try {
      if (visible !== null && !visible.has(id)) throw new NotFoundError(`alert ${id}`);
      // the scope was applied above, in one query for all ids
      const opts = { client, now };
      const checked = scopedId<"alert">(id);
      if (act.action === "snooze") await snoozeAlert(checked, by, act.until, note, opts);
      else if (act.action === "acknowledge") await acknowledgeAlert(checked, by, note, opts);
      else await resolveAlert(checked, by, note, opts);
      out.push({ id, ok: true });
    } catch (e) {
      if (e instanceof NotFoundError || e instanceof ConflictError) {
        out.push({ id, ok: false, error: e.message });
      } else {
        // the store's message can name tables and files: it goes to the server log only
        console.error(`[alerts] bulk ${act.action} of ${id} failed:`, e);
        out.push({ id, ok: false, error: "internal error (the details are in the server log)" });
      }
    }
  }
  return out;
}
