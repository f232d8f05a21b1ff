import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db.ts";
import { addWorkDeltas, recordWork, newWorkState } from "@/lib/ingest/work-hours.ts";
import { workFromSamples } from "@/lib/ingest/work-counters.ts";
import { parseExposition } from "@/lib/ingest/exposition.ts";
import { createEmbeddedSource } from "@/lib/metrics/embedded/source.ts";
import { makeTestDb } from "@/lib/testing/test-db.ts";
import { unitCostsCsv } from "./csv.ts";
import { getUnitCostMonth } from "./get-unit-cost-month.ts";

// The store path end to end: the collector's work rows (through lib/ingest, their one writer) and
// the ledger's host rows, read through the embedded MetricsSource.

let db: Db;
let g6: string;
let other: string;
const H = (d: number, h: number) => new Date(Date.UTC(2026, 10, d, h));
const metrics = () => createEmbeddedSource(db, 15);

async function ledgerHour(hostId: string, hourStart: Date, cost: bigint, team: string) {
  await db.usageHour.create({
    data: {
      hourStart,
      hostId,
      gpuKey: "host",
      provider: "aws",
      instanceType: "g6.xlarge",
      region: "us-east-1",
      pricingModel: "on_demand",
      team,
      project: "p",
      upSeconds: 3600,
      samples: 240,
      idleSeconds: 0,
      priced: true,
      costMicros: cost,
      idleCostMicros: 0n,
      source: "test",
    },
  });
}

const expo = (tokens: number) =>
  `gpufleet_work_units_total{unit="output_tokens",model_name="Qwen/Qwen3-8B",job="vllm",source="vllm"} ${tokens}\n`;
const scraped = (hostId: string, tokens: number) => [
  {
    hostId,
    result: {
      ok: true as const,
      url: "http://127.0.0.1:1/metrics",
      durationMs: 1,
      invalidLines: 0,
      snapshot: {
        info: null,
        gpus: [],
        migs: [],
        processes: [],
        sourceOk: true,
        interruption: null,
      },
      work: workFromSamples(parseExposition(expo(tokens)).samples),
    },
  },
];

beforeAll(async () => {
  db = makeTestDb().db;
  const a = await db.host.create({
    data: { hostname: "g6-a", provider: "aws", instanceType: "g6.xlarge", team: "ml" },
  });
  const b = await db.host.create({
    data: { hostname: "g6-other", provider: "aws", instanceType: "g6.xlarge", team: "vision" },
  });
  g6 = a.id;
  other = b.id;
  await db.gpu.create({
    data: { uuid: "GPU-l4", hostId: g6, index: 0, name: "NVIDIA L4", memoryTotalBytes: 24n << 30n },
  });
  // Scrapes: first sight at 10:00:30 (no increase), +1.5M in hour 10, a reset in hour 11 (+0.9M)
  const state = newWorkState();
  await recordWork(db, state, scraped(g6, 2_000_000), H(3, 10));
  await recordWork(db, state, scraped(g6, 3_500_000), new Date(H(3, 10).getTime() + 1_800_000));
  await recordWork(db, state, scraped(g6, 900_000), new Date(H(3, 11).getTime() + 60_000));
  await ledgerHour(g6, H(3, 10), 804_800n, "ml");
  await ledgerHour(g6, H(3, 11), 804_800n, "ml");
  await ledgerHour(g6, H(3, 12), 804_800n, "ml"); // no counters this hour: not the work's cost
  await addWorkDeltas(db, [
    {
      hostId: other,
      hourStart: H(3, 10),
      unit: "output_tokens",
      modelName: '=HYPERLINK("x")',
      job: "",
      source: "vllm",
      units: 2_000_000,
    },
  ]);
  await ledgerHour(other, H(3, 10), 1_000_000n, "vision");
});

afterAll(async () => {
  await db.$disconnect();
});

describe("getUnitCostMonth", () => {
  it("turns recorded counters and the ledger's hours into $ per million tokens", async () => {
    const r = await getUnitCostMonth("2026-11", { client: db, metrics: metrics(), scope: ["ml"] });
    // 1,500,000 + 900,000 = 2,400,000 tokens over hours 10 and 11: 1,609,600 µ$
    // → 1,609,600 × 1,000,000 / 2,400,000 = 670,666.67 → 670,667 µ$ ($0.670667) per million
    expect(r.hosts).toEqual([
      expect.objectContaining({
        hostname: "g6-a",
        gpus: "1× L4",
        unit: "output_tokens",
        modelName: "Qwen/Qwen3-8B",
        units: 2_400_000,
        hours: 2,
        costMicros: "1609600",
        perMicros: "670667",
        status: "ok",
      }),
    ]);
    expect(r.byType).toHaveLength(1);
  });

  it("keeps to the caller's teams and answers not found for a host outside them", async () => {
    const all = await getUnitCostMonth("2026-11", { client: db, metrics: metrics(), scope: null });
    expect(all.hosts.map((h) => h.hostname).sort()).toEqual(["g6-a", "g6-other"]);
    await expect(
      getUnitCostMonth("2026-11", { client: db, metrics: metrics(), scope: ["ml"], hostId: other }),
    ).rejects.toThrow("not found");
    const october = await getUnitCostMonth("2026-10", {
      client: db,
      metrics: metrics(),
      scope: null,
    });
    expect(october.hosts).toEqual([]);
  });

  it("escapes formula cells in the CSV", async () => {
    const all = await getUnitCostMonth("2026-11", { client: db, metrics: metrics(), scope: null });
    const csv = unitCostsCsv(all);
    expect(csv.split("\n")[0]).toBe(
      "month,provider,instance_type,gpus,model,mixed,unit,hosts,units,hours,units_per_second_per_host,cost,cost_per_unit,per,status",
    );
    expect(csv).toContain("'=HYPERLINK");
    expect(csv).toContain(
      "2026-11,aws,g6.xlarge,1× L4,Qwen/Qwen3-8B,false,output_tokens,1,2400000,2,333.333,1.609600,0.670667",
    );
  });
});
