import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { alertOnNewChannel } from "./alertmanager-fixture.ts";
import { resendOpenAlerts } from "./alertmanager-resend.ts";
import { deliverDue } from "./deliver.ts";
import { startReceiver } from "./receiver.ts";
import type { Sender } from "./send.ts";

// An alertmanager_api channel against a local receiver on 127.0.0.1 standing in for an
// Alertmanager that fails: retries, bounded logging of failed re-sends, and the re-send slots.

const T0 = new Date("2026-11-20T12:00:00Z");
const at = (ms: number) => () => new Date(T0.getTime() + ms);
const PUBLIC = "https://gpufleet.example.com";
const deny = async () => false;
let db: Db;

const firingAlert = (url: string) => alertOnNewChannel(db, url, T0);
const notification = (alertId: string) =>
  db.notification.findFirstOrThrow({ where: { alertId, transition: "firing" } });

describe("re-sending without an Alertmanager", () => {
  beforeAll(() => {
    ({ db } = makeTestDb());
  });
  afterAll(async () => db.$disconnect());

  it("retries 5xx and no answer like webhooks, POSTing under the base URL's path", async () => {
    const rx = await startReceiver((i) => (i < 1 ? 503 : 200));
    try {
      const { alert } = await firingAlert(rx.url);
      const o = { allowPrivate: deny, publicUrl: PUBLIC, baseDelayMs: 1000 };
      expect(await deliverDue(db, { ...o, clock: at(0) })).toMatchObject({ retrying: 1 });
      expect(await deliverDue(db, { ...o, clock: at(1000) })).toMatchObject({ delivered: 1 });
      expect(rx.requests.map((r) => [r.status, r.path])).toEqual([
        [503, "/hook/api/v2/alerts"],
        [200, "/hook/api/v2/alerts"],
      ]);
      expect((await notification(alert.id)).lastError).toBeNull();
      const dead = await firingAlert("http://127.0.0.1:9/am");
      expect(await deliverDue(db, { ...o, clock: at(0) })).toMatchObject({ retrying: 1 });
      expect((await notification(dead.alert.id)).status).toBe("pending");
    } finally {
      await db.channel.updateMany({ data: { enabled: false } });
      await rx.close();
    }
  });

  it("logs an unreachable Alertmanager until the channel shows failing, then its recovery once", async () => {
    let up = false;
    const rx = await startReceiver(() => (up ? 200 : 502));
    try {
      const { channel } = await firingAlert(rx.url);
      const o = { allowPrivate: deny, publicUrl: PUBLIC };
      const accepted: Sender = async () => ({
        ok: true,
        httpStatus: 200,
        error: null,
        durationMs: 1,
      });
      await deliverDue(db, { ...o, clock: at(0), send: accepted });
      for (let i = 1; i <= 6; i++)
        expect(await resendOpenAlerts(db, { ...o, clock: at(i * 60_000) })).toMatchObject({
          failed: 1,
        });
      const logged = () =>
        db.notificationAttempt.findMany({
          where: { notification: { channelId: channel.id } },
          orderBy: { at: "asc" },
        });
      // the delivery, then three failures: six minutes down add three rows, not six
      expect((await logged()).map((a) => a.error)).toEqual([
        null,
        "re-send: HTTP 502 Bad Gateway",
        "re-send: HTTP 502 Bad Gateway",
        "re-send: HTTP 502 Bad Gateway",
      ]);
      const { listChannels } = await import("./list-channels.ts");
      const health = async () =>
        (await listChannels(db)).channels.find((c) => c.id === channel.id)?.health;
      expect(await health()).toMatchObject({ status: "failing", consecutiveFailures: 3 });
      up = true;
      for (let i = 7; i <= 9; i++) await resendOpenAlerts(db, { ...o, clock: at(i * 60_000) });
      expect(await logged()).toHaveLength(5); // one success row for the recovery
      expect(await health()).toMatchObject({ status: "ok", consecutiveFailures: 0 });
      expect(rx.requests).toHaveLength(9);
    } finally {
      await db.channel.updateMany({ data: { enabled: false } });
      await rx.close();
    }
  });

  it("lets one of two concurrent runs take a channel's slot, and drops the slots of gone channels", async () => {
    const rx = await startReceiver();
    try {
      await firingAlert(rx.url);
      const o = { allowPrivate: deny, publicUrl: PUBLIC };
      await deliverDue(db, { ...o, clock: at(0) });
      const runs = await Promise.all([
        resendOpenAlerts(db, { ...o, clock: at(60_000) }),
        resendOpenAlerts(db, { ...o, clock: at(60_000) }),
      ]);
      expect(runs.map((r) => r.channels).sort()).toEqual([0, 1]);
      await db.channel.deleteMany({});
      await resendOpenAlerts(db, { ...o, clock: at(120_000) });
      const slots = await db.jobState.count({
        where: { name: { startsWith: "notify.alertmanager-resend:" } },
      });
      expect(slots).toBe(0);
    } finally {
      await rx.close();
    }
  });
});
