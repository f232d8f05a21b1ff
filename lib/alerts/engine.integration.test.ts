import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertInScope } from "./get-alert.ts";
import { NotFoundError } from "../core/errors.ts";
import type { Db } from "../db.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { acknowledgeAlert, resolveAlert, snoozeAlert } from "./act-on-alert.ts";
import { evaluateAlerts } from "./evaluate-rules.ts";
import { makeGpu, makeHost, writeHours, writeMinutes } from "./fixtures.ts";
import { createEmbeddedSource } from "../metrics/embedded/source.ts";

// Rules evaluated end to end on the store: hand-made 1-minute series and ledger hours.

const T0 = new Date("2026-11-20T12:00:00Z");
const min = (n: number) => new Date(T0.getTime() + n * 60_000);
let db: Db;

async function evaluate(now: Date) {
  for (const h of await db.host.findMany())
    await db.host.update({ where: { id: h.id }, data: { lastSeen: now } });
  await db.gpu.updateMany({ data: { lastSeen: now } });
  return evaluateAlerts(db, { now, metrics: createEmbeddedSource(db, 15), intervalS: 15 });
}

async function notifications(alertId?: string) {
  return db.notification.findMany({
    where: alertId ? { alertId } : {},
    orderBy: { createdAt: "asc" },
  });
}

beforeAll(async () => {
  db = makeTestDb().db;
  await db.channel.create({ data: { name: "ops", kind: "webhook", url: "http://127.0.0.1:9/x" } });
});
afterAll(async () => db.$disconnect());

describe("idle rule on 1-minute series", () => {
  let ruleId = "";
  beforeAll(async () => {
    ruleId = (
      await db.alertRule.create({
        data: {
          name: "Idle",
          kind: "idle",
          params: JSON.stringify({ durationMinutes: 30 }),
          cooldownSeconds: 3600,
        },
      })
    ).id;
    const h = await makeHost(db, "idle-host");
    const [held, empty, busy, flap] = await Promise.all([
      makeGpu(db, h.id, "GPU-held", 0),
      makeGpu(db, h.id, "GPU-empty", 1),
      makeGpu(db, h.id, "GPU-busy", 2),
      makeGpu(db, h.id, "GPU-flap", 3),
    ]);
    const from = min(-45);
    const to = min(300);
    await writeMinutes(db, h.id, held.uuid, from, to, () => ({
      util: 0.01,
      memGiB: 30,
      processes: 1,
    }));
    await writeMinutes(db, h.id, empty.uuid, from, to, () => ({ util: 0, memGiB: 0 }));
    await writeMinutes(db, h.id, busy.uuid, from, to, () => ({
      util: 0.92,
      memGiB: 30,
      processes: 1,
    }));
    // Flapping: idle until T0, one busy minute at T0+1, idle again after it.
    await writeMinutes(db, h.id, flap.uuid, from, to, (t) => ({
      util: t.getTime() === min(1).getTime() || t.getTime() === min(120).getTime() ? 0.9 : 0.02,
    }));
  });

  it("fires one alert per idle GPU, held and empty told apart, and queues one notification each", async () => {
    const r = await evaluate(T0);
    expect(r.errors).toEqual([]);
    const alerts = await db.alert.findMany({ where: { ruleId }, orderBy: { gpuUuid: "asc" } });
    expect(alerts.map((a) => [a.gpuUuid, JSON.parse(a.details).idleKind])).toEqual([
      ["GPU-empty", "empty"],
      ["GPU-flap", "empty"],
      ["GPU-held", "held"],
    ]);
    expect(alerts.every((a) => a.state === "firing" && a.openKey === a.fingerprint)).toBe(true);
    expect((await notifications()).map((n) => n.transition)).toEqual([
      "firing",
      "firing",
      "firing",
    ]);
    // evaluating again changes nothing
    await evaluate(min(0.5));
    expect(await db.alert.count({ where: { ruleId } })).toBe(3);
    expect(await db.notification.count()).toBe(3);
  });

  it("a flapping GPU stays one firing alert within the resolve hold; a later return is told anew", async () => {
    const flap = async () =>
      db.alert.findMany({ where: { gpuUuid: "GPU-flap", ruleId }, orderBy: { startsAt: "asc" } });
    await evaluate(min(2)); // the busy minute is in the window: resolving, still firing to channels
    let rows = await flap();
    expect(rows.map((a) => [a.state, a.clearSince?.toISOString()])).toEqual([
      ["firing", min(2).toISOString()],
    ]);
    const id = rows[0]?.id ?? "";
    await evaluate(min(4)); // 2 min clear: inside the 5-min hold
    expect((await flap()).map((a) => a.state)).toEqual(["firing"]);
    await evaluate(min(35)); // idle again: the flap never reached the channels
    rows = await flap();
    expect(rows.map((a) => [a.state, a.clearSince])).toEqual([["firing", null]]);
    expect((await notifications(id)).map((n) => n.transition)).toEqual(["firing"]);
    // busy at +120: clear for 30 min, past the hold: resolved (ended when it cleared), and told
    await evaluate(min(121));
    await evaluate(min(127));
    rows = await flap();
    expect(rows.map((a) => [a.state, a.endsAt?.toISOString()])).toEqual([
      ["resolved", min(121).toISOString()],
    ]);
    expect((await notifications(id)).map((n) => n.transition)).toEqual(["firing", "resolved"]);
    const events = await db.alertEvent.findMany({ where: { alertId: id }, orderBy: { at: "asc" } });
    expect(events.map((e) => `${e.from}->${e.to}`)).toEqual(["null->firing", "firing->resolved"]);
    // idle again at +155, within the cool-down: a new alert, notified, so the channel's last
    // message ("firing") matches the state
    await evaluate(min(155));
    rows = await flap();
    expect(rows.map((a) => a.state)).toEqual(["resolved", "firing"]);
    expect((await notifications(rows[1]?.id)).map((n) => n.transition)).toEqual(["firing"]);
  });

  it("acknowledge, snooze and resolve are recorded with who and when; a snoozed alert stays quiet", async () => {
    const held = await db.alert.findFirstOrThrow({ where: { gpuUuid: "GPU-held", ruleId } });
    // actions take only ids checked against the caller's team scope: outside it, a 404
    await expect(alertInScope(held.id, ["nobody"], db)).rejects.toBeInstanceOf(NotFoundError);
    const id = await alertInScope(held.id, null, db);
    await acknowledgeAlert(id, "carol", "looking", { client: db, now: min(160) });
    await snoozeAlert(id, "carol", min(400), undefined, {
      client: db,
      now: min(161),
    });
    const a = await db.alert.findUniqueOrThrow({ where: { id: held.id } });
    expect([a.state, a.acknowledgedBy]).toEqual(["acknowledged", "carol"]);
    // the GPU goes busy: the alert resolves, but no "resolved" goes out while snoozed
    await db.gpuMinute.updateMany({
      where: { gpuUuid: "GPU-held", minuteStart: { gte: min(170) } },
      data: { util: 0.9 },
    });
    await evaluate(min(171));
    expect((await db.alert.findUniqueOrThrow({ where: { id: held.id } })).state).toBe(
      "acknowledged", // resolving: the condition must stay clear for the 5-min hold
    );
    await evaluate(min(176));
    expect((await db.alert.findUniqueOrThrow({ where: { id: held.id } })).state).toBe("resolved");
    expect((await notifications(held.id)).map((n) => n.transition)).toEqual(["firing"]);
    const events = await db.alertEvent.findMany({
      where: { alertId: held.id },
      orderBy: { at: "asc" },
    });
    expect(events.map((e) => [e.to, e.by])).toEqual([
      ["firing", null],
      ["acknowledged", "carol"],
      ["acknowledged", "carol"],
      ["resolved", null],
    ]);
  });

  it("a hand-resolved alert stays quiet for the cool-down; then a still-true condition fires anew", async () => {
    const empty = await db.alert.findFirstOrThrow({ where: { gpuUuid: "GPU-empty", ruleId } });
    await resolveAlert(await alertInScope(empty.id, null, db), "dave", "known, draining", {
      client: db,
      now: min(177),
    });
    const resolved = await db.alert.findUniqueOrThrow({ where: { id: empty.id } });
    expect([resolved.state, resolved.resolvedBy]).toEqual(["resolved", "dave"]);
    expect((await notifications(empty.id)).map((n) => n.transition)).toEqual([
      "firing",
      "resolved",
    ]);
    await evaluate(min(180));
    expect(await db.alert.count({ where: { gpuUuid: "GPU-empty" } })).toBe(1);
    await evaluate(min(240)); // 63 min later: past the cool-down, still empty → a new alert
    const all = await db.alert.findMany({
      where: { gpuUuid: "GPU-empty" },
      orderBy: { startsAt: "asc" },
    });
    expect(all.map((a) => a.state)).toEqual(["resolved", "firing"]);
    expect((await notifications(all[1]?.id)).map((n) => n.transition)).toEqual(["firing"]);
  });
});

describe("budget rule on a hand-made ledger", () => {
  it("fires at 80 % on actual and 100 % on forecast, and escalates when actual passes 100 %", async () => {
    const rule = await db.alertRule.create({ data: { name: "Budgets", kind: "budget" } });
    const h = await makeHost(db, "budget-host", { team: "vision" });
    const other = await makeHost(db, "other-host", { team: "research" });
    const budget = await db.budget.create({
      data: {
        name: "Vision",
        scopeKind: "team",
        scopeValue: "vision",
        amountMicros: 1_000_000_000n,
      },
    });
    const from = new Date("2026-11-01T00:00:00Z");
    const tenDays = new Date("2026-11-11T00:00:00Z");
    // $820 over 240 hours = $3.416666…/h; written as exact micros: 240 × 3_416_666 + 160
    await writeHours(db, h, from, tenDays, (t) => ({
      costMicros: t.getTime() === from.getTime() ? 3_416_826n : 3_416_666n,
      idleCostMicros: 1_000_000n,
    }));
    await writeHours(db, other, from, tenDays, () => ({ costMicros: 50_000_000n }));
    const now = new Date("2026-11-11T00:30:00Z");
    const r = await evaluateAlerts(db, {
      now,
      metrics: createEmbeddedSource(db, 15),
      intervalS: 15,
    });
    expect(r.errors).toEqual([]);
    const alerts = await db.alert.findMany({
      where: { ruleId: rule.id },
      orderBy: { fingerprint: "asc" },
    });
    expect(
      alerts.map((a) => [JSON.parse(a.details).basis, JSON.parse(a.details).level, a.team]),
    ).toEqual([
      ["actual", 80, "vision"],
      ["forecast", 100, "vision"],
    ]);
    const actual = alerts[0];
    expect(actual?.summary).toContain("$820.00 of $1,000.00");
    expect(actual?.summary).toContain("82.0 %");
    expect(actual?.summary).toContain("forecast $2,460.00");
    expect(actual?.summary).toContain("idle GPUs cost $240.00");
    expect(JSON.parse(actual?.details ?? "{}")).toMatchObject({
      budgetId: budget.id,
      spendMicros: "820000000",
    });
    // two more days: $984 → 98.4 %, no new level; then a big hour past 100 %: escalation
    await writeHours(db, h, tenDays, new Date("2026-11-13T00:00:00Z"), () => ({
      costMicros: 3_416_667n,
    }));
    await evaluateAlerts(db, {
      now: new Date("2026-11-13T00:30:00Z"),
      metrics: createEmbeddedSource(db, 15),
      intervalS: 15,
    });
    const id = actual?.id ?? "";
    expect((await notifications(id)).map((n) => n.transition)).toEqual(["firing:80"]);
    await writeHours(
      db,
      h,
      new Date("2026-11-13T00:00:00Z"),
      new Date("2026-11-13T01:00:00Z"),
      () => ({ costMicros: 20_000_000n }),
    );
    await evaluateAlerts(db, {
      now: new Date("2026-11-13T01:30:00Z"),
      metrics: createEmbeddedSource(db, 15),
      intervalS: 15,
    });
    expect((await notifications(id)).map((n) => n.transition)).toEqual(["firing:80", "firing:100"]);
    expect((await db.alert.findUniqueOrThrow({ where: { id } })).severity).toBe("critical");
  });
});
