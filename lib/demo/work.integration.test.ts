import "../testing/no-egress.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFleet } from "../../exporter/sim/fleet.ts";
import type { Db } from "../db.ts";
import { createEmbeddedSource } from "../metrics/embedded/source.ts";
import { recomputeRecommendations } from "../recommendations/recompute.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { getUnitCostMonth } from "../work/get-unit-cost-month.ts";
import { listTrials } from "../work/trials.ts";
import { DEMO_SEED, seedDemo } from "./seed.ts";
import { simWorkload } from "../../exporter/sim/work.ts";
import { DEMO_TRIAL, servedModels, tokensPerSecond } from "./work.ts";

// The demo's work counters and its finished trial, on a seeded store (3 days of history).

const NOW = new Date("2026-11-15T12:20:00Z"); // pinned mid-month
let db: Db;

beforeAll(async () => {
  const t = makeTestDb();
  db = t.db;
  await seedDemo(db, {
    exporterBase: "http://127.0.0.1:1",
    databaseUrl: t.url,
    hosts: 24,
    now: NOW,
    historyDays: 3,
    chartDays: 1,
  });
}, 300_000);
afterAll(async () => {
  await db.$disconnect();
});

describe("the demo's work counters", () => {
  it("counts work on inference GPUs only, with the models they serve", async () => {
    const fleet = buildFleet({ seed: DEMO_SEED, hosts: 24 });
    const serving = fleet.hosts.filter((h) => servedModels(h).size > 0).map((h) => h.hostname);
    const rows = await db.workHour.findMany({ include: { host: { select: { hostname: true } } } });
    expect([...new Set(rows.map((r) => r.host.hostname))].sort()).toEqual(serving.sort());
    expect(new Set(rows.map((r) => r.source))).toEqual(new Set(["vllm"]));
    // the model each host's live simulated vLLM server names, nothing else
    for (const h of fleet.hosts) {
      const mine = new Set(
        rows.filter((r) => r.host.hostname === h.hostname).map((r) => r.modelName),
      );
      const w = simWorkload(h);
      expect([...mine]).toEqual(w?.kind === "vllm" ? [w.model] : []);
    }
    // an hour never counts more than the GPUs' full-load rate allows
    for (const h of fleet.hosts) {
      const cap = h.gpus.reduce((n, g) => n + tokensPerSecond(g.name) * 3600, 0);
      const mine = rows.filter((r) => r.host.hostname === h.hostname && r.unit === "output_tokens");
      const byHour = new Map<number, number>();
      for (const r of mine) byHour.set(+r.hourStart, (byHour.get(+r.hourStart) ?? 0) + r.units);
      for (const v of byHour.values()) expect(v).toBeLessThanOrEqual(cap);
    }
  });

  it("shows measured $ per million output tokens for the inference hosts", async () => {
    const r = await getUnitCostMonth("2026-11", {
      client: db,
      metrics: createEmbeddedSource(db, 15),
      scope: null,
    });
    const g5 = r.hosts.filter((x) => x.instanceType === "g5.xlarge" && x.unit === "output_tokens");
    expect(g5).toHaveLength(2);
    for (const row of g5) {
      expect(row.status).toBe("ok");
      // the division, again: ledger dollars × 1,000,000 ÷ tokens, rounded half up
      const expected =
        (BigInt(row.costMicros) * 1_000_000n * 2n + BigInt(row.units)) / (2n * BigInt(row.units));
      expect(BigInt(row.perMicros ?? "0")).toBe(expected);
    }
  });

  it("has one finished trial with its report and recommendation", async () => {
    const [trial, ...rest] = await listTrials(null, undefined, db);
    expect(rest).toEqual([]);
    expect(trial).toMatchObject({ name: DEMO_TRIAL.name, instanceType: "g6.xlarge" });
    expect(trial?.report?.status).toBe("compared");
    expect(trial?.report?.summary).toMatch(
      /^Qwen\/Qwen3-8B on g6\.xlarge: \$\d+\.\d\d per million output tokens vs \$\d+\.\d\d on \S+ \(measured 31 h vs \d+ h\); moving the \d+ \S+ hosts? would (save|cost)/,
    );
    await recomputeRecommendations(db, NOW);
    const recos = await db.recommendation.findMany({ where: { kind: "trial_move" } });
    expect(recos.map((x) => x.details)).toEqual([trial?.report?.summary]);
  });
});
