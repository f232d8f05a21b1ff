import { describe, expect, it } from "vitest";
import type { GpuWindowStats } from "../metrics/source.ts";
import { evidenceSchema } from "../zod/schemas/recommendation.ts";
import { busyInefficientFor, recommendForHost } from "./compute.ts";
import type { HourWindow } from "./types.ts";
import type { HourRow, RecoHost, RecoInput } from "./types.ts";

// The busy_inefficient recommendation kind built from hourly GPU windows and ledger GPU rows.

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 19, 0);
const NOW = new Date(T0 + 24 * HOUR + 30 * 60_000);

const host: RecoHost = {
  id: "h1",
  hostname: "train-1",
  provider: "aws",
  instanceType: "p4d.24xlarge",
  region: "us-east-1",
  pricingModel: "on_demand",
  team: "research",
  project: "llm",
  owner: "ana",
  labels: {},
  gpus: [
    {
      uuid: "GPU-a",
      index: 0,
      name: "NVIDIA A100-SXM4-40GB",
      memoryTotalBytes: 40n * 1024n ** 3n,
      migMode: false,
      parentUuid: null,
    },
    {
      uuid: "GPU-b",
      index: 1,
      name: "NVIDIA A100-SXM4-40GB",
      memoryTotalBytes: 40n * 1024n ** 3n,
      migMode: false,
      parentUuid: null,
    },
  ],
};

function stat(gpuUuid: string, util: number, sm: number, hostId = "h1"): GpuWindowStats {
  return {
    hostId,
    gpuUuid,
    utilCoverage: 1,
    utilMax: util,
    utilAvg: util,
    memMaxBytes: null,
    memTotalBytes: null,
    processesMax: 1,
    tempAvg: null,
    tempCoverage: 0,
    thermalRatio: null,
    powerRatio: null,
    throttleCoverage: 0,
    eccUncorrectedIncrease: null,
    lastAt: null,
    smActiveMax: sm,
    smActiveAvg: sm,
    smActiveCoverage: 1,
  };
}

/** 24 hours: GPU-a busy but inefficient in the first 6, GPU-b busy and efficient throughout. */
const windows: HourWindow[] = Array.from({ length: 24 }, (_, i) => ({
  hourStart: new Date(T0 + i * HOUR),
  stats: [
    stat("GPU-a", 0.95, i < 6 ? 0.1 : 0.6),
    stat("GPU-b", 0.95, 0.7),
    // another host's GPU in the same hour: not this host's business
    stat("GPU-other", 0.95, 0.05, "h2"),
  ],
}));

/** GPU rows at $4.096/h (the GPU's share of the instance), every hour of the window. */
const rows: HourRow[] = windows.flatMap((w) =>
  ["GPU-a", "GPU-b"].map((gpuKey) => ({
    hourStart: w.hourStart,
    gpuKey,
    parentKey: null,
    upSeconds: 3600,
    utilMean: 0.95,
    utilP95: 0.99,
    memPeakBytes: 10n * 1024n ** 3n,
    memTotalBytes: 40n * 1024n ** 3n,
    idleSeconds: 0,
    idleHeldSeconds: 0,
    costMicros: 4_096_000n,
  })),
);

const input = (extra: Partial<RecoInput> = {}): RecoInput => ({
  host,
  rows,
  prices: [],
  now: NOW,
  windows,
  ...extra,
});

describe("busy_inefficient recommendation", () => {
  it("names the inefficient GPU, with its fingerprint, evidence and projected monthly cost", () => {
    const out = busyInefficientFor(input());
    expect(out).toHaveLength(1);
    const c = out[0];
    expect(c?.kind).toBe("busy_inefficient");
    expect(c?.fingerprint).toBe("busy_inefficient:GPU-a");
    expect(c?.gpuUuid).toBe("GPU-a");
    expect(c?.hostId).toBe("h1");
    expect(c?.title).toBe("GPU 0 on train-1 is busy but barely used: 6 hours of 24");
    expect(c?.details).toContain("95 % utilization while SM active stayed under 20 %");
    expect(c?.details).toContain("$4.096/h");
    // 6 h × $4.096 = $24.576 over 24 h judged → $1.024/h → × 730 h = $747.52 a month
    expect(c?.evidence.hourlySavingMicros).toBe("1024000");
    expect(c?.monthlySavingMicros).toBe(747_520_000n);
    expect(c?.evidence.metrics).toMatchObject({
      hours: 6,
      hoursJudged: 24,
      pricedHours: 6,
      costMicros: "24576000",
      firstHour: new Date(T0).toISOString(),
      lastHourEnd: new Date(T0 + 6 * HOUR).toISOString(),
    });
    expect(c?.evidence.from).toBe(new Date(T0).toISOString());
    expect(c?.evidence.to).toBe(new Date(T0 + 24 * HOUR).toISOString());
    expect(evidenceSchema.safeParse(c?.evidence).success).toBe(true);
  });

  it("is part of the host's recommendations", () => {
    const kinds = recommendForHost(input()).map((c) => c.fingerprint);
    expect(kinds).toContain("busy_inefficient:GPU-a");
  });

  it("gives nothing without windows, or when the ledger has not priced those hours", () => {
    expect(busyInefficientFor(input({ windows: undefined }))).toEqual([]);
    expect(busyInefficientFor(input({ windows: [] }))).toEqual([]);
    expect(busyInefficientFor(input({ rows: rows.filter((r) => r.gpuKey !== "GPU-a") }))).toEqual(
      [],
    );
  });

  it("projects only the priced hours' cost when part of them is not in the ledger yet", () => {
    const part = rows.filter(
      (r) => !(r.gpuKey === "GPU-a" && r.hourStart.getTime() >= T0 + 3 * HOUR),
    );
    const c = busyInefficientFor(input({ rows: part }))[0];
    // 3 priced hours × $4.096 = $12.288 over 24 h → $0.512/h → $373.76 a month
    expect(c?.monthlySavingMicros).toBe(373_760_000n);
    expect(c?.evidence.metrics.pricedHours).toBe(3);
    expect(c?.evidence.metrics.hours).toBe(6);
  });
});
