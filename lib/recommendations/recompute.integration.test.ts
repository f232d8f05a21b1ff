import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recommendationInScope } from "./list-recommendations.ts";
import { makeGpu, makeHost, writeHours } from "../alerts/fixtures.ts";
import type { Db } from "../db.ts";
import { installShippedCatalogue } from "../pricing/seed.ts";
import { makeTestDb } from "../testing/test-db.ts";
import {
  acceptRecommendation,
  dismissRecommendation,
  snoozeRecommendation,
} from "./act-on-recommendation.ts";
import { listRecommendations } from "./list-recommendations.ts";
import { recomputeRecommendations } from "./recompute.ts";

// Recompute against the store: a dismissed or snoozed recommendation is not recreated; accepted
// ones count as saved; ones that no longer apply disappear.

const NOW = new Date("2026-11-20T12:30:00Z");
const DAY = 86_400_000;
const HOUR = 3_600_000;
let db: Db;

beforeAll(async () => {
  db = makeTestDb().db;
  await installShippedCatalogue(db);
  const from = new Date(Date.UTC(2026, 10, 20, 12) - 31 * DAY);
  const to = new Date(Date.UTC(2026, 10, 20, 12));
  // an idle p3.2xlarge ($3.06/h): release it
  const idle = await makeHost(db, "idle-p3", { instanceType: "p3.2xlarge", owner: "heidi" });
  await makeGpu(db, idle.id, "V100", 0, { name: "Tesla V100-SXM2-16GB", memGiB: 16 });
  await writeHours(db, idle, from, to, () => ({
    utilMean: 0,
    utilP95: 0,
    memPeakGiB: 0,
    idleSeconds: 3600,
  }));
  // a busy g4dn.xlarge up all month: reserve it ($0.195/h less)
  const busy = await makeHost(db, "busy-g4dn", { instanceType: "g4dn.xlarge" });
  await makeGpu(db, busy.id, "T4", 0, { name: "Tesla T4", memGiB: 16 });
  await writeHours(db, busy, from, to, (t) => [
    { utilMean: 0.7, utilP95: 0.9, memPeakGiB: 12, memTotalGiB: 16 },
    {
      gpuKey: "T4",
      utilMean: 0.7,
      utilP95: 0.9,
      memPeakGiB: 12,
      memTotalGiB: 16,
      upSeconds: t ? 3600 : 0,
    },
  ]);
});
afterAll(async () => db.$disconnect());

const open = async () =>
  (await listRecommendations({ state: "open" }, { scope: null, client: db, now: NOW }))
    .recommendations;

describe("recompute", () => {
  it("creates recommendations with savings, highest first, and totals them", async () => {
    const r = await recomputeRecommendations(db, NOW);
    expect(r).toMatchObject({ hosts: 2, created: 2 });
    const list = await listRecommendations(
      { state: "open" },
      { scope: null, client: db, now: NOW },
    );
    expect(list.recommendations.map((x) => [x.kind, x.hostname, x.monthlySavingMicros])).toEqual([
      ["idle_release", "idle-p3", "2233800000"],
      ["reserved", "busy-g4dn", "142350000"],
    ]);
    expect(list.totals.possibleMicros).toBe("2376150000");
    expect(list.recommendations[0]?.owner).toBe("heidi");
    expect(list.recommendations[0]?.evidence.series.length).toBeGreaterThan(0);
    expect(list.lastComputedAt).toBe(NOW.toISOString());
  });

  it("does not recreate a dismissed recommendation, nor a snoozed one until its snooze ends", async () => {
    const [idle, reserved] = await open();
    await dismissRecommendation(
      await recommendationInScope(idle?.id ?? "", null, db),
      "erin",
      "lab machine, kept on purpose",
      {
        client: db,
        now: NOW,
      },
    );
    await snoozeRecommendation(
      await recommendationInScope(reserved?.id ?? "", null, db),
      "erin",
      new Date(NOW.getTime() + 2 * HOUR),
      {
        client: db,
        now: NOW,
      },
    );
    const later = new Date(NOW.getTime() + HOUR);
    const r = await recomputeRecommendations(db, later);
    expect(r).toMatchObject({ created: 0, kept: 2 });
    expect(await open()).toEqual([]);
    const dismissed = await db.recommendation.findUniqueOrThrow({ where: { id: idle?.id ?? "" } });
    expect([dismissed.state, dismissed.dismissReason, dismissed.actedBy]).toEqual([
      "dismissed",
      "lab machine, kept on purpose",
      "erin",
    ]);
    // after the snooze the reservation still applies: it reopens
    await recomputeRecommendations(db, new Date(NOW.getTime() + 2.5 * HOUR));
    const reopened = await db.recommendation.findUniqueOrThrow({
      where: { id: reserved?.id ?? "" },
    });
    expect([reopened.state, reopened.snoozedUntil]).toEqual(["open", null]);
  });

  it("counts accepted savings and drops open ones that no longer apply", async () => {
    const [reserved] = await open();
    await acceptRecommendation(
      await recommendationInScope(reserved?.id ?? "", null, db),
      "finance",
      {
        client: db,
        now: NOW,
      },
    );
    const list = await listRecommendations({ state: "all" }, { scope: null, client: db, now: NOW });
    expect(list.totals).toMatchObject({
      acceptedMicros: "142350000",
      acceptedCount: 1,
      dismissedCount: 1,
      possibleMicros: "0",
    });
    // a fake open recommendation for a vanished condition is removed on the next run
    const h = await db.host.findFirstOrThrow({ where: { hostname: "busy-g4dn" } });
    await db.recommendation.create({
      data: {
        kind: "spot",
        hostId: h.id,
        fingerprint: `spot:${h.id}`,
        title: "x",
        details: "x",
        monthlySavingMicros: 1n,
      },
    });
    const r = await recomputeRecommendations(db, NOW);
    expect(r.removed).toBe(1);
    expect(await db.recommendation.count({ where: { state: "accepted" } })).toBe(1);
  });
});
