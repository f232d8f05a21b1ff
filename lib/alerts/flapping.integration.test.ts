import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import { makeTestDb } from "../testing/test-db.ts";
import type { Condition } from "./facts.ts";
import { listAlerts } from "./list-alerts.ts";
import { DEFAULT_RESOLVE_HOLD_S, reconcileRule, type RuleRef } from "./reconcile.ts";

// A condition that flaps (clear one tick, true the next, every 15 s) must leave each channel's
// last message matching the alert's state, without a burst of firing/resolved pairs.

const T0 = new Date("2026-11-20T12:00:00Z");
const sec = (n: number) => new Date(T0.getTime() + n * 1000);
let db: Db;
let channels: string[] = [];

const condition = (fingerprint: string): Condition => ({
  fingerprint,
  severity: "warning",
  hostId: null,
  gpuUuid: null,
  team: null,
  project: null,
  summary: "GPU 0 throttled",
  details: {},
});

async function rule(name: string, extra: Partial<RuleRef> = {}): Promise<RuleRef> {
  const r = await db.alertRule.create({ data: { name, kind: "throttle", cooldownSeconds: 3600 } });
  return { id: r.id, kind: r.kind, cooldownSeconds: r.cooldownSeconds, ...extra };
}

/** Per channel, the transition of the last message queued about any alert of this fingerprint. */
async function lastMessages(fingerprint: string): Promise<Map<string, string>> {
  const rows = await db.notification.findMany({
    where: { alert: { fingerprint } },
    orderBy: [{ nextAttemptAt: "asc" }, { createdAt: "asc" }],
  });
  return new Map(rows.map((n) => [n.channelId, n.transition]));
}

async function openState(fingerprint: string): Promise<"firing" | "resolved"> {
  const open = await db.alert.count({ where: { fingerprint, openKey: fingerprint } });
  return open > 0 ? "firing" : "resolved";
}

beforeAll(async () => {
  db = makeTestDb().db;
  for (const name of ["ops", "oncall"])
    channels.push(
      (await db.channel.create({ data: { name, kind: "webhook", url: "http://127.0.0.1:9/x" } }))
        .id,
    );
});
afterAll(async () => {
  channels = [];
  await db.$disconnect();
});

describe("flapping alerts", () => {
  it("holds 'resolved' while the condition flaps; resolves once it stays clear for the hold", async () => {
    const r = await rule("Throttle");
    const fp = "flap-1";
    // 10 minutes of flapping: true on even ticks, clear on odd ones
    for (let t = 0; t < 40; t++) {
      await reconcileRule(db, r, t % 2 === 0 ? [condition(fp)] : [], sec(t * 15));
      const last = await lastMessages(fp);
      const state = await openState(fp);
      for (const c of channels)
        expect(last.get(c)).toBe(state === "firing" ? "firing" : "resolved");
    }
    expect(await db.alert.count({ where: { fingerprint: fp } })).toBe(1);
    expect((await db.notification.findMany({ where: { alert: { fingerprint: fp } } })).length).toBe(
      2,
    );
    // clear from the last tick (39) on: "resolving" (still firing) until the hold has passed
    const clearAt = 39 * 15;
    await reconcileRule(db, r, [], sec(clearAt + 15));
    const resolving = await db.alert.findFirstOrThrow({ where: { fingerprint: fp } });
    expect([resolving.state, resolving.clearSince?.toISOString()]).toEqual([
      "firing",
      sec(clearAt).toISOString(),
    ]);
    // the DTO says so: still "firing", resolving since the clear (the list shows "resolving")
    const dto = (now: Date) =>
      listAlerts({ state: "all", limit: 10 }, { client: db, now, scope: null }).then((l) =>
        l.alerts.filter((a) => a.id === resolving.id).map((a) => [a.state, a.clearSince]),
      );
    expect(await dto(sec(clearAt + 15))).toEqual([["firing", sec(clearAt).toISOString()]]);
    await reconcileRule(db, r, [], sec(clearAt + DEFAULT_RESOLVE_HOLD_S - 15));
    expect(await openState(fp)).toBe("firing");
    const done = await reconcileRule(db, r, [], sec(clearAt + DEFAULT_RESOLVE_HOLD_S));
    expect(done).toEqual({ fired: 0, resolved: 1, queued: 2 });
    const resolved = await db.alert.findFirstOrThrow({ where: { fingerprint: fp } });
    expect([resolved.state, resolved.endsAt?.toISOString()]).toEqual([
      "resolved",
      sec(clearAt).toISOString(),
    ]);
    expect(await dto(sec(clearAt + DEFAULT_RESOLVE_HOLD_S))).toEqual([["resolved", null]]);
    for (const c of channels) expect((await lastMessages(fp)).get(c)).toBe("resolved");
    const events = await db.alertEvent.findMany({
      where: { alertId: resolved.id },
      orderBy: { at: "asc" },
    });
    expect(events.map((e) => `${e.from}->${e.to}`)).toEqual(["null->firing", "firing->resolved"]);
  });

  it("a condition back after the resolve, within the cool-down, is a new alert and notified", async () => {
    const r = await rule("Throttle, no hold", { resolveHoldSeconds: 0 });
    const fp = "flap-2";
    const states: string[] = [];
    for (let t = 0; t < 6; t++) {
      await reconcileRule(db, r, t % 2 === 0 ? [condition(fp)] : [], sec(t * 15));
      const last = await lastMessages(fp);
      const state = await openState(fp);
      states.push(state);
      for (const c of channels) expect(last.get(c)).toBe(state);
    }
    expect(states).toEqual(["firing", "resolved", "firing", "resolved", "firing", "resolved"]);
    // without a hold every flip is told: three alerts, one firing + one resolved each per channel
    expect(await db.alert.count({ where: { fingerprint: fp } })).toBe(3);
    expect(await db.notification.count({ where: { alert: { fingerprint: fp } } })).toBe(3 * 2 * 2);
  });

  it("alerts of a retired host resolve at once (it cannot flap); a live host's wait", async () => {
    const r = await rule("Throttle, retired");
    const gone = await db.host.create({ data: { hostname: "gone", state: "retired" } });
    const live = await db.host.create({ data: { hostname: "live", state: "up" } });
    const on = (fp: string, hostId: string) => ({ ...condition(fp), hostId });
    await reconcileRule(db, r, [on("gone-0", gone.id), on("live-0", live.id)], sec(0));
    expect(await reconcileRule(db, r, [], sec(15))).toEqual({ fired: 0, resolved: 1, queued: 2 });
    expect([await openState("gone-0"), await openState("live-0")]).toEqual(["resolved", "firing"]);
  });

  it("a hand-resolved alert still stays quiet for the cool-down", async () => {
    const r = await rule("Throttle, by hand");
    const fp = "flap-3";
    await reconcileRule(db, r, [condition(fp)], sec(0));
    const a = await db.alert.findFirstOrThrow({ where: { fingerprint: fp } });
    await db.alert.update({
      where: { id: a.id },
      data: { state: "resolved", openKey: null, endsAt: sec(10), resolvedBy: "dave" },
    });
    expect(await reconcileRule(db, r, [condition(fp)], sec(60))).toEqual({
      fired: 0,
      resolved: 0,
      queued: 0,
    });
    expect(await db.alert.count({ where: { fingerprint: fp } })).toBe(1);
    const later = await reconcileRule(db, r, [condition(fp)], sec(3611));
    expect(later).toEqual({ fired: 1, resolved: 0, queued: 2 });
  });
});
