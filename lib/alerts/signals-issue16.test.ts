import { describe, expect, it } from "vitest";
import { evaluateIdle, smActiveIdle } from "./evaluate-idle.ts";
import { evaluateExporterDown } from "./evaluate-health.ts";
import { evaluateSpotInterruption } from "./evaluate-spot.ts";
import type { GpuFacts, HostFacts, RuleFacts } from "./facts.ts";
import type { GpuWindowStats } from "../metrics/source.ts";

// The idle rule where SM active exists: SM active under 1 % over the window is idle even when
// utilization.gpu reads busy (a kernel spinning on one SM); without SM active, utilization decides.
// Also: a host reclaimed under a spot notice is no outage for the exporter-down rule.

const NOW = new Date("2026-12-01T02:00:00Z");
const host: HostFacts = {
  id: "h1",
  hostname: "gpu-aws-usw2-003",
  provider: "aws",
  instanceType: "p4d.24xlarge",
  region: "us-west-2",
  pricingModel: "on_demand",
  team: "research",
  project: "llm",
  owner: null,
  labels: {},
  state: "up",
  lastError: null,
  firstSeen: new Date("2026-11-01T00:00:00Z"),
  lastSeen: NOW,
  hourlyMicros: 32_772_600n,
  gpuCount: 8,
};
const gpu = (uuid: string, index: number): GpuFacts => ({
  uuid,
  hostId: "h1",
  index,
  name: "A100",
  parentUuid: null,
  firstSeen: host.firstSeen,
  lastSeen: NOW,
});
const stat = (gpuUuid: string, extra: Partial<GpuWindowStats>): GpuWindowStats => ({
  hostId: "h1",
  gpuUuid,
  utilCoverage: 1,
  utilMax: 1,
  utilAvg: 0.99,
  memMaxBytes: 0,
  memTotalBytes: 40 * 1024 ** 3,
  processesMax: 1,
  tempAvg: 50,
  tempCoverage: 1,
  thermalRatio: 0,
  powerRatio: 0,
  throttleCoverage: 1,
  eccUncorrectedIncrease: 0,
  lastAt: new Date(NOW.getTime() - 60_000),
  ...extra,
});
const rule: RuleFacts = {
  id: "r1",
  name: "idle",
  kind: "idle",
  scopeKind: "fleet",
  scopeValue: "",
  excludeLabels: {},
  params: {
    utilThreshold: 0.05,
    durationMinutes: 30,
    heldMemRatio: 0.01,
    notify: "held_and_empty",
  },
  cooldownSeconds: 3600,
};

describe("idle rule with SM active", () => {
  const stats = [
    stat("g-stuck", { smActiveMax: 0.004, smActiveAvg: 0.002, smActiveCoverage: 1 }),
    stat("g-working", { smActiveMax: 0.6, smActiveAvg: 0.5, smActiveCoverage: 1 }),
    stat("g-no-profiling", {}),
    stat("g-sparse", { smActiveMax: 0.001, smActiveAvg: 0.001, smActiveCoverage: 0.2 }),
    stat("g-quiet-util", { utilMax: 0.01, smActiveMax: 0.3, smActiveCoverage: 1 }),
  ];
  const gpus = new Map(stats.map((s, i) => [s.gpuUuid, gpu(s.gpuUuid, i)]));
  const fired = evaluateIdle(rule, stats, new Map([["h1", host]]), gpus, NOW, 15);
  const by = new Map(fired.map((c) => [c.gpuUuid, c]));

  it("fires on SM active under 1 % though utilization reads 100 %", () => {
    expect(by.get("g-stuck")?.summary).toContain("SM active under 1 %");
    expect(by.get("g-stuck")?.details).toMatchObject({ idleBy: "sm_active", smActiveMax: 0.004 });
  });

  it("leaves busy GPUs alone, with or without profiling, and needs SM active coverage", () => {
    expect(by.has("g-working")).toBe(false);
    expect(by.has("g-no-profiling")).toBe(false);
    expect(by.has("g-sparse")).toBe(false);
  });

  it("still counts low utilization as idle (SM active only adds idle minutes)", () => {
    expect(by.get("g-quiet-util")?.details).toMatchObject({ idleBy: "utilization" });
  });

  it("smActiveIdle needs readings over half the window, all under 1 %", () => {
    expect(smActiveIdle(stat("a", { smActiveMax: 0.0099, smActiveCoverage: 0.5 }))).toBe(true);
    expect(smActiveIdle(stat("a", { smActiveMax: 0.01, smActiveCoverage: 1 }))).toBe(false);
    expect(smActiveIdle(stat("a", { smActiveMax: null, smActiveCoverage: 0 }))).toBe(false);
    expect(smActiveIdle(stat("a", {}))).toBe(false);
  });
});

describe("exporter down and spot reclaims", () => {
  const down: RuleFacts = { ...rule, kind: "exporter_down", params: { missedIntervals: 2 } };
  const silent = { lastSeen: new Date(NOW.getTime() - 10 * 60_000) };
  it("fires for a silent host, not for one reclaimed under an announced interruption", () => {
    const hosts = [
      { ...host, ...silent, id: "h-down", state: "down" },
      { ...host, ...silent, id: "h-spot", state: "interrupted" },
    ];
    const fired = evaluateExporterDown(down, hosts, NOW, 15);
    expect(fired.map((c) => c.hostId)).toEqual(["h-down"]);
  });
});

describe("spot interruption", () => {
  const spot: RuleFacts = { ...rule, kind: "exporter_down", params: {} };
  it("fires while a notice is pending, with its time, and not otherwise", () => {
    const hosts = [
      {
        ...host,
        id: "h-notice",
        interruptionPending: true,
        interruptionAt: new Date("2026-12-01T02:02:00Z"),
      },
      {
        ...host,
        id: "h-gone",
        state: "interrupted",
        interruptionPending: true,
        interruptionAt: null,
      },
      { ...host, id: "h-calm", interruptionPending: false, interruptionAt: new Date(NOW) },
      { ...host, id: "h-old" },
    ];
    const fired = evaluateSpotInterruption(spot, hosts, NOW);
    expect(fired.map((c) => [c.hostId, c.summary])).toEqual([
      ["h-notice", "Spot reclaim announced for 02:02 UTC on gpu-aws-usw2-003 (p4d.24xlarge)"],
      [
        "h-gone",
        "Spot reclaim announced on gpu-aws-usw2-003 (p4d.24xlarge); the host has stopped answering",
      ],
    ]);
    expect(fired[0]?.details).toMatchObject({
      secondsLeft: 120,
      interruptionAt: "2026-12-01T02:02:00.000Z",
    });
  });
});
