import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { alertOnNewChannel } from "./alertmanager-fixture.ts";
import {
  hasAlertmanager,
  startAlertmanager,
  type RunningAlertmanager,
} from "../testing/alertmanager-process.ts";
import { RESOLVED_RESEND_MS, resendOpenAlerts } from "./alertmanager-resend.ts";
import { deliverDue } from "./deliver.ts";
import { enqueueNotifications } from "./enqueue.ts";
import { postJson, type Sender } from "./send.ts";
import { testChannel } from "./test-channel.ts";

// gpufleet's alerts pushed to a real Alertmanager (Debian's prometheus-alertmanager on 127.0.0.1):
// they appear in GET /api/v2/alerts with their labels, resolve, stay silenced by a silence made in
// Alertmanager, and a refusal (4xx) fails at once with Alertmanager's reason.

// Alert times lie in the past of the real clock, which Alertmanager judges resolution by.
const T0 = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 3_600_000);
const at = (ms: number) => () => new Date(T0.getTime() + ms);
const PUBLIC = "https://gpufleet.example.com";
const deny = async () => false;
let db: Db;
let am: RunningAlertmanager;

/** Every POST body sent, then the real POST. */
const sent: unknown[] = [];
const recording: Sender = async (url, body, opts) => {
  sent.push(body);
  return postJson(url, body, opts);
};
const opts = { allowPrivate: deny, publicUrl: PUBLIC, send: recording };

const firingAlert = (url: string, data: { endsAt?: Date; state?: string } = {}) =>
  alertOnNewChannel(db, url, T0, data);

const notification = (alertId: string, transition = "firing") =>
  db.notification.findFirstOrThrow({ where: { alertId, transition } });

async function inAlertmanager(alertId: string) {
  return (await am.alerts()).find((a) => a.labels.alert_id === alertId);
}

describe.skipIf(!hasAlertmanager)("an Alertmanager as a destination (API v2)", () => {
  beforeAll(async () => {
    ({ db } = makeTestDb());
    am = await startAlertmanager();
  });
  afterEach(async () => {
    // each test's channels stop here, so later re-sends only concern the next test's
    await db.channel.updateMany({ data: { enabled: false } });
    sent.length = 0;
  });
  afterAll(async () => {
    await am?.stop();
    await db?.$disconnect();
  });

  it("delivers a firing alert: listed by GET /api/v2/alerts with its labels and a link back", async () => {
    const { alert, host } = await firingAlert(am.url);
    expect(await deliverDue(db, { ...opts, clock: at(0) })).toMatchObject({ delivered: 1 });
    const got = await inAlertmanager(alert.id);
    expect(got?.labels).toEqual({
      alertname: "gpufleet_idle",
      severity: "warning",
      source: "gpufleet",
      alert_id: alert.id,
      fingerprint: alert.fingerprint,
      hostname: host.hostname,
      uuid: alert.gpuUuid,
      gpu: "3",
      team: "research",
      project: "llm",
    });
    expect(got?.annotations).toMatchObject({ summary: alert.summary, rule: "Idle GPUs" });
    expect(got?.generatorURL).toBe(`${PUBLIC}/alerts?alert=${alert.id}`);
    expect(got?.startsAt).toBe(T0.toISOString());
    expect(got?.status.state).toBe("active");
    // no endsAt was sent: Alertmanager sets it to now + resolve_timeout
    expect(sent).toEqual([[expect.not.objectContaining({ endsAt: expect.anything() })]]);
    expect(Date.parse(got?.endsAt ?? "")).toBeGreaterThan(Date.now());
  });

  it("resolves it: endsAt is the resolve time and Alertmanager no longer lists it", async () => {
    const { alert, channel, routable } = await firingAlert(am.url);
    await deliverDue(db, { ...opts, clock: at(0) });
    expect((await inAlertmanager(alert.id))?.status.state).toBe("active");
    const resolvedAt = new Date(T0.getTime() + 30 * 60_000);
    await db.alert.update({
      where: { id: alert.id },
      data: { state: "resolved", endsAt: resolvedAt, openKey: null },
    });
    await enqueueNotifications(db, routable, "resolved", resolvedAt, new Set([channel.id]));
    sent.length = 0;
    expect(await deliverDue(db, { ...opts, clock: at(30 * 60_000) })).toMatchObject({
      delivered: 1,
    });
    const [body] = sent as { labels: Record<string, string>; endsAt: string }[][];
    expect(body?.[0]?.endsAt).toBe(resolvedAt.toISOString());
    expect(await inAlertmanager(alert.id)).toBeUndefined();
    // and it is not re-sent any more
    expect(await resendOpenAlerts(db, { ...opts, clock: at(40 * 60_000) })).toMatchObject({
      alerts: 0,
    });
  });

  it("re-sends open alerts every interval without new rows; a silence made in Alertmanager holds", async () => {
    const { alert } = await firingAlert(am.url);
    await deliverDue(db, { ...opts, clock: at(0) });
    const silenceId = await am.silence({ alert_id: alert.id });
    const rows = await db.notification.count();
    const resend = (ms: number) => resendOpenAlerts(db, { ...opts, clock: at(ms) });
    expect(await resend(60_000)).toEqual({ channels: 1, alerts: 1, failed: 0 });
    expect(await resend(90_000)).toEqual({ channels: 0, alerts: 0, failed: 0 }); // not due yet
    expect(await resend(120_000)).toEqual({ channels: 1, alerts: 1, failed: 0 });
    const got = await inAlertmanager(alert.id);
    expect(got?.status).toEqual({ state: "suppressed", silencedBy: [silenceId], inhibitedBy: [] });
    expect(await db.notification.count()).toBe(rows);
    expect(sent).toHaveLength(3); // the delivery and two re-sends
    expect(
      new Set(sent.map((b) => JSON.stringify((b as { labels: unknown }[])[0]?.labels))).size,
    ).toBe(1);
  });

  it("tells Alertmanager at the next re-send that a snoozed alert ended (no resolved notification)", async () => {
    const { alert } = await firingAlert(am.url);
    await deliverDue(db, { ...opts, clock: at(0) });
    const resend = (ms: number) => resendOpenAlerts(db, { ...opts, clock: at(ms) });
    expect(await resend(60_000)).toMatchObject({ alerts: 1 });
    const endsAt = new Date(T0.getTime() + 90_000);
    await db.alert.update({
      where: { id: alert.id },
      data: { state: "resolved", endsAt, openKey: null, snoozedUntil: at(3_600_000)() },
    });
    sent.length = 0;
    expect(await resend(120_000)).toMatchObject({ alerts: 1 });
    expect(sent).toEqual([[expect.objectContaining({ endsAt: endsAt.toISOString() })]]);
    expect(await inAlertmanager(alert.id)).toBeUndefined();
    // said again each interval for RESOLVED_RESEND_MS after it ended, as Prometheus does, then no more
    expect(await resend(180_000)).toMatchObject({ channels: 1, alerts: 1 });
    expect(await resend(90_000 + RESOLVED_RESEND_MS + 60_000)).toMatchObject({
      channels: 1,
      alerts: 0,
    });
  });

  it("fails at once on a 404 from a wrong route prefix, keeping the status and no body", async () => {
    const { alert } = await firingAlert(`${am.url}/no-such-prefix`);
    expect(await deliverDue(db, { ...opts, clock: at(0) })).toMatchObject({ failed: 1 });
    const row = await notification(alert.id);
    expect([row.status, row.attempts]).toEqual(["failed", 1]);
    expect(row.lastError).toBe("HTTP 404 Not Found");
  });

  it("fails at once on a 400 (an alert that ends before it starts), keeping the status and no body", async () => {
    const endsAt = new Date(T0.getTime() - 60_000);
    const { alert } = await firingAlert(am.url, { state: "resolved", endsAt });
    expect(await deliverDue(db, { ...opts, clock: at(0) })).toMatchObject({ failed: 1 });
    const row = await notification(alert.id, "resolved");
    expect([row.status, row.attempts]).toEqual(["failed", 1]);
    expect(row.lastError).toBe("HTTP 400 Bad Request");
  });

  it("sends the test button's alert, marked as a test", async () => {
    const { channel } = await firingAlert(am.url);
    const r = await testChannel(channel.id, { client: db, allowPrivate: deny });
    expect(r).toMatchObject({ ok: true, httpStatus: 200, error: null });
    const test = (await am.alerts()).find((a) => a.labels.test === "true");
    expect(test?.status.state).toBe("active");
    expect(test?.annotations.summary).toContain(`“${channel.name}”`);
  });
});
