import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { deliverDue } from "./deliver.ts";
import { enqueueNotifications } from "./enqueue.ts";
import { startReceiver, type Receiver } from "./receiver.ts";
import type { SendResult } from "./send.ts";

// At-least-once delivery against a real HTTP receiver on 127.0.0.1: retries with backoff, one
// accepted delivery per alert transition, also across a restart.

const T0 = new Date("2026-11-20T12:00:00Z");
const at = (ms: number) => () => new Date(T0.getTime() + ms);
let db: Db;
let url = "";
let receivers: Receiver[] = [];

async function alertWithChannel(channelUrl: string, kind = "webhook") {
  const rule = await db.alertRule.create({ data: { name: "Idle", kind: "idle" } });
  const channel = await db.channel.create({
    data: { name: `c-${Math.random()}`, kind, url: channelUrl },
  });
  const alert = await db.alert.create({
    data: {
      ruleId: rule.id,
      fingerprint: `fp-${Math.random()}`,
      kind: "idle",
      summary: "GPU 3 on h1 held but idle",
      startsAt: T0,
      team: "research",
    },
  });
  await enqueueNotifications(db, { ...alert, hostname: null }, "firing", T0, new Set([channel.id]));
  const n = await db.notification.findFirstOrThrow({ where: { alertId: alert.id } });
  return { alert, channel, n };
}

async function receiver(respond?: (n: number) => number | Promise<number>) {
  const r = await startReceiver(respond);
  receivers.push(r);
  return r;
}

beforeAll(() => {
  ({ db, url } = makeTestDb());
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
  await db.$disconnect();
});

describe("delivery", () => {
  it("retries a receiver that fails twice, then delivers exactly once; every attempt recorded", async () => {
    const rx = await receiver((i) => (i < 2 ? 503 : 200));
    const { n } = await alertWithChannel(rx.url);
    const opts = { baseDelayMs: 1000, maxDelayMs: 60_000 };
    expect((await deliverDue(db, { ...opts, clock: at(0) })).retrying).toBe(1);
    // not due yet: nothing is sent
    expect((await deliverDue(db, { ...opts, clock: at(500) })).claimed).toBe(0);
    expect((await deliverDue(db, { ...opts, clock: at(1000) })).retrying).toBe(1);
    // second failure: the wait doubles to 2 s
    expect((await deliverDue(db, { ...opts, clock: at(2500) })).claimed).toBe(0);
    expect((await deliverDue(db, { ...opts, clock: at(3000) })).delivered).toBe(1);
    expect((await deliverDue(db, { ...opts, clock: at(60_000) })).claimed).toBe(0);
    expect(rx.requests.map((r) => r.status)).toEqual([503, 503, 200]);
    expect(rx.accepted()).toHaveLength(1);
    expect(rx.accepted()[0]?.idempotencyKey).toBe(n.id);
    const done = await db.notification.findUniqueOrThrow({
      where: { id: n.id },
      include: { attemptLog: { orderBy: { at: "asc" } } },
    });
    expect([done.status, done.attempts]).toEqual(["delivered", 3]);
    expect(done.attemptLog.map((a) => [a.httpStatus, a.error])).toEqual([
      [503, "HTTP 503 Service Unavailable"],
      [503, "HTTP 503 Service Unavailable"],
      [200, null],
    ]);
  });

  it("survives a restart between attempts and a crash while holding a claim: still one delivery", async () => {
    const rx = await receiver((i) => (i < 2 ? 500 : 200));
    const { n } = await alertWithChannel(rx.url);
    const opts = { baseDelayMs: 1000, claimTtlMs: 10_000 };
    const first = createDb(url);
    await deliverDue(first, { ...opts, clock: at(0) }); // attempt 1 fails
    await first.$disconnect(); // "restart"
    const second = createDb(url);
    await deliverDue(second, { ...opts, clock: at(1000) }); // attempt 2 fails
    // attempt 3 is claimed by a process that dies mid-send (its request never completes) …
    let release: (r: SendResult) => void = () => {};
    const hung = deliverDue(second, {
      ...opts,
      clock: at(3000),
      send: () => new Promise<SendResult>((r) => (release = r)),
    });
    // wait for the claim itself, not a fixed 50 ms (a loaded machine takes longer to get there)
    for (let i = 0; i < 400; i++) {
      const row = await db.notification.findUniqueOrThrow({ where: { id: n.id } });
      if (row.status === "sending") break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect((await db.notification.findUniqueOrThrow({ where: { id: n.id } })).status).toBe(
      "sending",
    );
    // … so nobody may take it until the claim expires, then a restarted process does
    const third = createDb(url);
    expect((await deliverDue(third, { ...opts, clock: at(5000) })).claimed).toBe(0);
    expect((await deliverDue(third, { ...opts, clock: at(14_000) })).delivered).toBe(1);
    // the dead sender's late answer changes nothing
    release({ ok: false, httpStatus: null, error: "killed", durationMs: 1 });
    await hung;
    const done = await db.notification.findUniqueOrThrow({ where: { id: n.id } });
    expect([done.status, done.attempts]).toEqual(["delivered", 3]);
    expect(rx.accepted()).toHaveLength(1);
    await Promise.all([second.$disconnect(), third.$disconnect()]);
  });

  it("gives up after the last attempt and the channel shows as failing", async () => {
    const rx = await receiver(() => 500);
    const { n, channel } = await alertWithChannel(rx.url);
    for (let i = 0; i < 4; i++)
      await deliverDue(db, { baseDelayMs: 1, maxAttempts: 3, clock: at(i * 1000) });
    const done = await db.notification.findUniqueOrThrow({ where: { id: n.id } });
    expect([done.status, done.attempts]).toEqual(["failed", 3]);
    const { listChannels } = await import("./list-channels.ts");
    const c = (await listChannels(db)).channels.find((x) => x.id === channel.id);
    expect(c?.health).toMatchObject({ status: "failing", consecutiveFailures: 3, failed: 1 });
  });

  it("never writes credentials or query tokens into attempts or errors", async () => {
    const rx = await receiver(() => 401);
    const secretUrl = rx.url.replace("http://", "http://user:hunter2@") + "?token=s3cr3t-value";
    const { n } = await alertWithChannel(secretUrl);
    await deliverDue(db, { clock: at(0) });
    const unreachable = await alertWithChannel(
      "http://user:hunter2@127.0.0.1:9/hook?token=s3cr3t-value",
    );
    await deliverDue(db, { clock: at(0) });
    const attempts = await db.notificationAttempt.findMany({
      where: { notificationId: { in: [n.id, unreachable.n.id] } },
    });
    expect(attempts).toHaveLength(2);
    const text = JSON.stringify(attempts) + JSON.stringify(await db.notification.findMany());
    expect(text).not.toContain("hunter2");
    expect(text).not.toContain("s3cr3t-value");
  });

  it("sends each channel kind's payload: generic JSON, Slack and Alertmanager", async () => {
    const rx = await receiver();
    await alertWithChannel(rx.url, "webhook");
    await alertWithChannel(rx.url, "slack");
    await alertWithChannel(rx.url, "alertmanager");
    await deliverDue(db, { clock: at(0) });
    const bodies = rx.accepted().map((r) => r.body as Record<string, unknown>);
    expect(bodies).toHaveLength(3);
    expect(bodies.find((b) => b.source === "gpufleet")).toMatchObject({
      transition: "firing",
      status: "firing",
    });
    expect(bodies.find((b) => "blocks" in b)?.text).toContain("held but idle");
    const am = bodies.find((b) => b.version === "4") as {
      alerts: { labels: Record<string, string>; endsAt: string }[];
    };
    expect(am.alerts[0]?.labels).toMatchObject({ alertname: "gpufleet_idle", team: "research" });
    expect(am.alerts[0]?.endsAt).toBe("0001-01-01T00:00:00Z");
  });
});
