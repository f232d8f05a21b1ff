import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db.ts";
import { makeTestDb } from "@/lib/testing/test-db.ts";
import { importBenchmarks, listBenchmarks } from "../benchmarks/manage.ts";
import { installShippedBenchmarks } from "../benchmarks/shipped.ts";
import { getCompare, monthUsageByModel } from "./get-compare.ts";

// The comparison's store reads on both engines: GPU-hours and cost per GPU model from the ledger
// (whole GPUs only; MIG slices add cost), team scope, and benchmark writes in one transaction.

let db: Db;
const M = 1_000_000n;
const MONTH = "2026-10";

beforeAll(async () => {
  db = makeTestDb().db;
  await db.priceEntry.create({
    data: {
      provider: "aws",
      instanceType: "g5.xlarge",
      pricingModel: "on_demand",
      gpuModel: "A10G",
      gpuCount: 1,
      gpuMemoryBytes: 24n * 1024n ** 3n,
      usdPerHourMicros: 1_006_000n,
      effectiveFrom: new Date("2024-01-01T00:00:00Z"),
      source: "test",
      sourceDate: "2024-01",
    },
  });
  const hourStart = new Date(`${MONTH}-03T00:00:00Z`);
  for (const [hostname, team, priced] of [
    ["a", "research", true],
    ["b", "infra", false],
  ] as const) {
    const h = await db.host.create({
      data: { hostname, team, provider: "aws", instanceType: "g5.xlarge" },
    });
    for (const [gpuKey, cost] of [
      ["host", 2n * M],
      [`${hostname}-gpu0`, 1n * M],
      [`${hostname}-gpu1`, 0n],
      [`${hostname}-gpu1:gi1`, 1n * M],
    ] as const) {
      await db.usageHour.create({
        data: {
          hourStart,
          hostId: h.id,
          gpuKey,
          gpuModel: gpuKey === "host" ? "A10G" : "NVIDIA A10G",
          provider: "aws",
          instanceType: "g5.xlarge",
          region: "us-east-1",
          pricingModel: "on_demand",
          team,
          project: "p",
          upSeconds: 1800,
          samples: 120,
          idleSeconds: 0,
          priced,
          costMicros: priced ? cost : 0n,
          idleCostMicros: 0n,
          source: "test",
        },
      });
    }
  }
});
afterAll(async () => db.$disconnect());

describe("comparison store reads", () => {
  it("sums whole-GPU seconds and every non-host row's cost per GPU model, within scope", async () => {
    expect(await monthUsageByModel(db, MONTH, null)).toEqual([
      { model: "A10G", gpuSeconds: 7200, pricedGpuSeconds: 3600, actualMicros: 2n * M },
    ]);
    expect(await monthUsageByModel(db, MONTH, ["infra"])).toEqual([
      { model: "A10G", gpuSeconds: 3600, pricedGpuSeconds: 0, actualMicros: 0n },
    ]);
    expect(await monthUsageByModel(db, "2026-09", null)).toEqual([]);
    const c = await getCompare(MONTH, {
      client: db,
      now: new Date("2026-11-01T00:00:00Z"),
      scope: ["research"],
    });
    // 1 GPU-hour × $1.006
    expect(c.reprice.models[0]?.alternatives[0]).toMatchObject({
      instanceType: "g5.xlarge",
      micros: "1006000",
    });
  });

  it("imports benchmarks in one transaction and installs the shipped ones once", async () => {
    const row = {
      provider: "aws",
      instanceType: "g5.xlarge",
      workload: "w",
      unit: "tokens/s",
      value: 100,
      source: "s",
      sourceDate: "2025-01",
      note: null,
    };
    expect(await importBenchmarks([row], "t", db)).toEqual({ added: 1, updated: 0, lines: 1 });
    expect(await importBenchmarks([{ ...row, value: 200 }], "t", db)).toMatchObject({ updated: 1 });
    expect(await installShippedBenchmarks(db)).toMatchObject({ inserted: 3 });
    const list = await listBenchmarks({ client: db, now: new Date("2026-11-01T00:00:00Z") });
    const mine = list.find((b) => b.instanceType === "g5.xlarge");
    // $1.006/h ÷ (200 tokens/s × 3600) × 1e6 = $1.397222…
    expect(mine?.costs).toEqual([
      expect.objectContaining({ per: "$ per million tokens", micros: "1397222" }),
    ]);
  });
});
