import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { createEmbeddedSource } from "../metrics/embedded/source.ts";
import { initial, params } from "@/components/settings/rule-form-values.ts";
import { RULE_KIND_LABELS, RULE_KINDS, ruleInputSchema } from "../zod/schemas/rule.ts";
import { evaluateAlerts } from "./evaluate-rules.ts";
import { makeHost } from "./fixtures.ts";
import { DEFAULT_RESOLVE_HOLD_S } from "./reconcile.ts";
import { DEFAULT_RULES, installDefaultRules } from "./rules/default-rules.ts";

// The spot_interruption rule kind end to end on the store: a host with a pending reclaim notice
// fires one alert of this kind, and it resolves once the notice is gone.

const T0 = new Date("2026-11-20T12:00:00Z");
let db: Db;

async function evaluate(now: Date) {
  await db.host.updateMany({ data: { lastSeen: now } });
  return evaluateAlerts(db, { now, metrics: createEmbeddedSource(db, 15), intervalS: 15 });
}

beforeAll(() => {
  db = makeTestDb().db;
});
afterAll(async () => db.$disconnect());

describe("spot_interruption rule kind", () => {
  it("is one of the 9 default rules, with no parameters", () => {
    expect(DEFAULT_RULES).toHaveLength(9);
    const spot = DEFAULT_RULES.find((r) => r.kind === "spot_interruption");
    expect(spot?.name).toBe("Spot reclaim announced");
    expect(spot?.params).toEqual({});
  });

  it("is a rule kind the settings form can create, with no parameter fields", () => {
    expect(RULE_KINDS).toContain("spot_interruption");
    expect(RULE_KIND_LABELS.spot_interruption).toBe("Spot reclaim announced");
    const form = { ...initial(null), name: "Spot", kind: "spot_interruption" };
    expect(params("spot_interruption", form)).toEqual({});
    expect(
      ruleInputSchema.parse({ name: "Spot", kind: "spot_interruption", params: {} }),
    ).toMatchObject({ kind: "spot_interruption", params: {}, scopeKind: "fleet" });
  });

  it("rejects parameters it does not know", () => {
    const r = ruleInputSchema.safeParse({
      name: "Spot",
      kind: "spot_interruption",
      params: { leadMinutes: 5 },
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(["params"]);
  });

  it("fires one alert for the host with a pending notice and resolves once it clears", async () => {
    expect(await installDefaultRules(db)).toBe(9);
    const rule = await db.alertRule.findFirstOrThrow({ where: { kind: "spot_interruption" } });
    const spot = await makeHost(db, "spot-host", { pricingModel: "spot", owner: "ana" });
    await makeHost(db, "calm-host", { pricingModel: "spot" });
    await db.host.update({
      where: { id: spot.id },
      data: { interruptionPending: true, interruptionAt: new Date("2026-11-20T12:02:00Z") },
    });

    const r = await evaluate(T0);
    expect(r.errors).toEqual([]);
    const alerts = await db.alert.findMany({ where: { ruleId: rule.id } });
    expect(alerts).toHaveLength(1);
    const a = alerts[0];
    expect(a?.hostId).toBe(spot.id);
    expect(a?.state).toBe("firing");
    expect(a?.summary).toContain("Spot reclaim announced for 12:02 UTC on spot-host");
    expect(JSON.parse(a?.details ?? "{}")).toMatchObject({
      interruptionAt: "2026-11-20T12:02:00.000Z",
      secondsLeft: 120,
    });

    // evaluated again with the notice still pending: still the one alert
    await evaluate(new Date(T0.getTime() + 60_000));
    expect(await db.alert.count({ where: { ruleId: rule.id } })).toBe(1);

    await db.host.update({
      where: { id: spot.id },
      data: { interruptionPending: false, interruptionAt: null },
    });
    // cleared: resolving first, resolved once it stayed clear for the resolve hold
    await evaluate(new Date(T0.getTime() + 120_000));
    await evaluate(new Date(T0.getTime() + 120_000 + DEFAULT_RESOLVE_HOLD_S * 1000));
    const after = await db.alert.findMany({ where: { ruleId: rule.id } });
    expect(after.map((x) => x.state)).toEqual(["resolved"]);
  });
});
