import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db.ts";
import { addWorkDeltas } from "@/lib/ingest/work-hours.ts";
import { createEmbeddedSource } from "@/lib/metrics/embedded/source.ts";
import { recomputeRecommendations } from "@/lib/recommendations/recompute.ts";
import { makeTestDb } from "@/lib/testing/test-db.ts";
import {
  createTrial,
  listTrials,
  reportDueTrials,
  syncLabelTrials,
  TRIAL_LABEL,
} from "./trials.ts";

// A trial host (g6.xlarge, $0.50 an hour) against two g5.xlarge hosts ($1.00 an hour) serving the
// same model, all in the store: the report, then the recommendation it becomes.

let db: Db;
const ids: Record<string, string> = {};
const H0 = Date.UTC(2026, 10, 2, 0);
const at = (h: number) => new Date(H0 + h * 3_600_000);
const Q = "Qwen/Qwen3-8B";

async function hostHours(hostId: string, instanceType: string, hours: number[], cost: bigint) {
  await db.usageHour.createMany({
    data: hours.map((h) => ({
      hourStart: at(h),
      hostId,
      gpuKey: "host",
      provider: "aws",
      instanceType,
      region: "us-east-1",
      pricingModel: "on_demand",
      team: "ml",
      project: "p",
      upSeconds: 3600,
      samples: 240,
      idleSeconds: 0,
      priced: true,
      costMicros: cost,
      idleCostMicros: 0n,
      source: "test",
    })),
  });
  await addWorkDeltas(
    db,
    hours.map((h) => ({
      hostId,
      hourStart: at(h),
      unit: "output_tokens" as const,
      modelName: Q,
      job: "vllm",
      source: "vllm",
      units: instanceType === "g6.xlarge" ? 2_000_000 : 2_500_000,
    })),
  );
}

beforeAll(async () => {
  db = makeTestDb().db;
  for (const [name, type] of [
    ["trial", "g6.xlarge"],
    ["g5-a", "g5.xlarge"],
    ["g5-b", "g5.xlarge"],
  ] as const) {
    const h = await db.host.create({
      data: { hostname: name, provider: "aws", instanceType: type, team: "ml", state: "up" },
    });
    ids[name] = h.id;
  }
  const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);
  await hostHours(ids.trial ?? "", "g6.xlarge", range(10, 20), 500_000n);
  await hostHours(ids["g5-a"] ?? "", "g5.xlarge", range(0, 20), 1_000_000n);
  await hostHours(ids["g5-b"] ?? "", "g5.xlarge", range(0, 20), 1_000_000n);
});

afterAll(async () => {
  await db.$disconnect();
});

describe("trials", () => {
  it("reports a trial once its window ended and turns it into a recommendation", async () => {
    const trial = await createTrial(
      { hostId: ids.trial ?? "", name: "l4", hours: 10, by: "test", now: at(10), origin: "page" },
      ["ml"],
      db,
    );
    const metrics = createEmbeddedSource(db, 15);
    expect(await reportDueTrials(db, metrics, at(19))).toBe(0); // still running
    expect(await reportDueTrials(db, metrics, at(20))).toBe(1);
    const [listed] = await listTrials(["ml"], ids.trial, db);
    expect(listed?.id).toBe(trial.id);
    // trial: 10 h × $0.50 = $5 for 20M tokens → $0.25 per million
    // g5: 2 hosts × 20 h × $1 = $40 for 100M tokens → $0.40 per million
    // monthly: g5's $40 / 40 host-h × 730 × 2 = $1,460; its 100M/40 × 1460 = 3,650M tokens
    // at $0.25 → $912.50; saving $547.50
    expect(listed?.report).toMatchObject({
      status: "compared",
      model: Q,
      trial: { hours: 10, units: 20_000_000, perMicros: "250000" },
      others: [
        {
          instanceType: "g5.xlarge",
          hosts: 2,
          hours: 40,
          perMicros: "400000",
          monthlySavingMicros: "547500000",
        },
      ],
    });
    expect(listed?.report?.summary).toBe(
      "Qwen/Qwen3-8B on g6.xlarge: $0.25 per million output tokens vs $0.40 on g5.xlarge (measured 10 h vs 40 h); moving the 2 g5.xlarge hosts would save $548/month at the same throughput",
    );
    await recomputeRecommendations(db, at(21));
    const recos = await db.recommendation.findMany({ where: { kind: "trial_move" } });
    expect(recos).toHaveLength(1);
    expect(recos[0]).toMatchObject({ hostId: ids.trial, monthlySavingMicros: 547_500_000n });
    expect(JSON.parse(recos[0]?.evidence ?? "{}").metrics).toMatchObject({
      trialPerMicros: "250000",
      otherPerMicros: "400000",
    });
    await expect(
      createTrial(
        { hostId: ids.trial ?? "", name: "l4", hours: 1, by: "t", now: at(30), origin: "page" },
        null,
        db,
      ),
    ).rejects.toThrow("already has a trial");
    await expect(
      createTrial(
        { hostId: ids.trial ?? "", name: "x", hours: 1, by: "t", now: at(30), origin: "page" },
        ["other-team"],
        db,
      ),
    ).rejects.toThrow("not found");
  });

  it("opens a trial for a labelled host and ends it when the label goes", async () => {
    const id = ids["g5-b"] ?? "";
    await db.host.update({
      where: { id },
      data: { labels: JSON.stringify({ [TRIAL_LABEL]: "a10g" }) },
    });
    expect(await syncLabelTrials(db, at(30))).toEqual({ opened: 1, ended: 0 });
    expect(await syncLabelTrials(db, at(31))).toEqual({ opened: 0, ended: 0 });
    await db.host.update({ where: { id }, data: { labels: "{}" } });
    expect(await syncLabelTrials(db, at(40))).toEqual({ opened: 0, ended: 1 });
    const t = await db.workTrial.findUniqueOrThrow({
      where: { hostId_name: { hostId: id, name: "a10g" } },
    });
    expect([t.startsAt, t.endsAt]).toEqual([at(30), at(40)]);
  });
});
