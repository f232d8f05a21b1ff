import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import type { TickContext } from "../tick/context.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { hasAlertmanager, startAlertmanager } from "../testing/alertmanager-process.ts";
import { channelsNotifiedOfFiring, enqueueNotifications } from "./enqueue.ts";
import { deliveryInFlight, runDeliveryJob } from "./job.ts";
import { startReceiver, type Receiver } from "./receiver.ts";

// Alertmanager is a state sync: every open alert in an alertmanager_api channel's scope reaches
// it, including alerts that opened before the channel existed or while it was disabled, and so
// does their resolution. One notify pass (the job: queue what the channel was not told, deliver,
// re-send) is all it takes.

// Alert times lie in the past of the real clock, which Alertmanager judges resolution by.
const T0 = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 3_600_000);
const at = (ms: number) => () => new Date(T0.getTime() + ms);
const deny = async () => false;
let db: Db;
let n = 0;

/** One notify job run, as the scheduler starts it, awaited to the end. */
async function pass(ms: number): Promise<void> {
  const ctx = { db, now: at(ms)(), metrics: null } as unknown as TickContext;
  await runDeliveryJob(ctx, { clock: at(ms), allowPrivate: deny }, () => {});
  await deliveryInFlight();
}

/** An open alert as the rules open one: with no channel to tell at the time. */
async function openAlert(team: string, data: { snoozedUntil?: Date } = {}) {
  n++;
  const rule = await db.alertRule.create({ data: { name: `Idle ${n}`, kind: "idle" } });
  const host = await db.host.create({ data: { hostname: `sync-node-${n}`, team } });
  const alert = await db.alert.create({
    data: {
      ruleId: rule.id,
      fingerprint: `idle:${rule.id}:GPU-${n}`,
      openKey: `idle:${rule.id}:GPU-${n}`,
      kind: "idle",
      hostId: host.id,
      summary: `GPU 0 on sync-node-${n} idle`,
      startsAt: T0,
      team,
      ...data,
    },
  });
  const routable = { ...alert, hostname: host.hostname };
  await enqueueNotifications(db, routable, "firing", T0);
  return { alert, routable };
}

/** Resolves an alert the way lib/alerts/reconcile.ts does: "resolved" to the channels told. */
async function resolve(a: Awaited<ReturnType<typeof openAlert>>, endsAt: Date) {
  await db.alert.update({
    where: { id: a.alert.id },
    data: { state: "resolved", endsAt, openKey: null },
  });
  const told = await channelsNotifiedOfFiring(db, a.alert.id);
  await enqueueNotifications(db, a.routable, "resolved", endsAt, told);
}

const amChannel = (url: string, enabled = true) =>
  db.channel.create({
    data: {
      name: `am-${Math.random()}`,
      kind: "alertmanager_api",
      url,
      scopeKind: "team",
      scopeValue: "research",
      enabled,
    },
  });

type Posted = { labels: Record<string, string>; endsAt?: string };
const posted = (rx: Receiver): Posted[] => rx.accepted().flatMap((r) => r.body as Posted[]);
const ids = (alerts: readonly Posted[]) =>
  [...new Set(alerts.map((a) => a.labels.alert_id))].sort();

beforeAll(() => {
  ({ db } = makeTestDb());
});
afterAll(async () => db.$disconnect());
afterEach(async () => {
  // each test starts with no alerts and no channels
  await db.alert.deleteMany({});
  await db.channel.deleteMany({});
});

describe("an Alertmanager channel holds every open alert in its scope", () => {
  it("added while alerts fire: it gets all of them at the next pass, then their resolution", async () => {
    const rx = await startReceiver();
    try {
      const mine = [];
      for (let i = 0; i < 20; i++) mine.push(await openAlert("research"));
      await openAlert("search"); // another team: out of the channel's scope
      await openAlert("research", { snoozedUntil: at(7_200_000)() }); // snoozed: not told
      await amChannel(rx.url);
      await pass(0);
      expect(ids(posted(rx))).toEqual(mine.map((a) => a.alert.id).sort());
      const first = mine[0];
      if (!first) throw new Error("no alert");
      const endsAt = at(90_000)();
      await resolve(first, endsAt);
      rx.requests.length = 0;
      await pass(120_000);
      const ended = posted(rx).filter((a) => a.labels.alert_id === first.alert.id);
      expect(ended.length).toBeGreaterThan(0);
      expect(ended.every((a) => a.endsAt === endsAt.toISOString())).toBe(true);
      // and the others are still re-sent as open
      expect(ids(posted(rx).filter((a) => !a.endsAt))).toHaveLength(19);
    } finally {
      await rx.close();
    }
  });

  it("re-enabled after alerts opened: it gets them; one resolved meanwhile is said ended", async () => {
    const rx = await startReceiver();
    try {
      const channel = await amChannel(rx.url);
      const before = await openAlert("research");
      await pass(0);
      expect(ids(posted(rx))).toEqual([before.alert.id]);
      await db.channel.update({ where: { id: channel.id }, data: { enabled: false } });
      const during = await openAlert("research"); // queued for no one: the channel is disabled
      const endsAt = at(200_000)();
      await resolve(before, endsAt); // its "resolved" is not queued for a disabled channel
      rx.requests.length = 0;
      await db.channel.update({ where: { id: channel.id }, data: { enabled: true } });
      await pass(240_000);
      const got = posted(rx);
      expect(ids(got.filter((a) => !a.endsAt))).toEqual([during.alert.id]);
      expect(got.filter((a) => a.labels.alert_id === before.alert.id)).toEqual([
        expect.objectContaining({ endsAt: endsAt.toISOString() }),
      ]);
    } finally {
      await rx.close();
    }
  });
});

describe.skipIf(!hasAlertmanager)("against a real Alertmanager", () => {
  it("a channel added while 20 alerts fire lists all 20 after one pass, and the resolution", async () => {
    const am = await startAlertmanager();
    try {
      const mine = [];
      for (let i = 0; i < 20; i++) mine.push(await openAlert("research"));
      await amChannel(am.url);
      await pass(0);
      const listed = async () =>
        (await am.alerts()).map((a) => a.labels.alert_id).filter((id) => id !== undefined);
      expect((await listed()).sort()).toEqual(mine.map((a) => a.alert.id).sort());
      const first = mine[0];
      if (!first) throw new Error("no alert");
      await resolve(first, at(90_000)());
      await pass(120_000);
      expect(await listed()).not.toContain(first.alert.id);
      expect(await listed()).toHaveLength(19);
    } finally {
      await am.stop();
    }
  }, 60_000);
});
