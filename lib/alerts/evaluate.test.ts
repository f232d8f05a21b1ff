import { describe, expect, it } from "vitest";
import { budgetFigures } from "../budgets/status.ts";
import { evaluateBudgets, type BudgetSubject } from "./evaluate-budget.ts";
import {
  evaluateEcc,
  evaluateExporterDown,
  evaluateGpuMissing,
  evaluateTemperature,
  evaluateThrottle,
} from "./evaluate-health.ts";
import { evaluateIdle } from "./evaluate-idle.ts";
import { hostInScope, type GpuFacts, type HostFacts, type RuleFacts } from "./facts.ts";
import type { GpuWindowStats } from "../metrics/source.ts";

const NOW = new Date("2026-11-20T12:00:00Z");
const GIB = 1024 ** 3;

function host(id: string, extra: Partial<HostFacts> = {}): HostFacts {
  return {
    id,
    hostname: `host-${id}`,
    provider: "aws",
    instanceType: "p4d.24xlarge",
    region: "us-east-1",
    pricingModel: "on_demand",
    team: "research",
    project: "llm",
    owner: "alice",
    labels: {},
    state: "up",
    lastError: null,
    firstSeen: new Date("2026-11-01T00:00:00Z"),
    lastSeen: NOW,
    hourlyMicros: 32_772_600n,
    gpuCount: 8,
    ...extra,
  };
}

function gpu(uuid: string, hostId: string, index: number, extra: Partial<GpuFacts> = {}): GpuFacts {
  return {
    uuid,
    hostId,
    index,
    name: "A100",
    parentUuid: null,
    firstSeen: new Date("2026-11-01T00:00:00Z"),
    lastSeen: NOW,
    ...extra,
  };
}

function stat(
  gpuUuid: string,
  hostId: string,
  extra: Partial<GpuWindowStats> = {},
): GpuWindowStats {
  return {
    hostId,
    gpuUuid,
    utilCoverage: 1,
    utilMax: 0.01,
    utilAvg: 0.005,
    memMaxBytes: 0,
    memTotalBytes: 40 * GIB,
    processesMax: 0,
    tempAvg: 50,
    tempCoverage: 1,
    thermalRatio: 0,
    powerRatio: 0,
    throttleCoverage: 1,
    eccUncorrectedIncrease: 0,
    lastAt: new Date(NOW.getTime() - 60_000),
    ...extra,
  };
}

function rule(
  kind: RuleFacts["kind"],
  params: Record<string, unknown> = {},
  extra: Partial<RuleFacts> = {},
): RuleFacts {
  return {
    id: "r1",
    name: kind,
    kind,
    scopeKind: "fleet",
    scopeValue: "",
    excludeLabels: {},
    params,
    cooldownSeconds: 3600,
    ...extra,
  };
}

const hosts = new Map([
  ["h1", host("h1")],
  ["h2", host("h2", { team: "vision", labels: { env: "dev" }, owner: null })],
]);
const gpus = new Map(
  [
    gpu("g-held", "h1", 0),
    gpu("g-empty", "h1", 1),
    gpu("g-busy", "h1", 2),
    gpu("g-dev", "h2", 0),
  ].map((g) => [g.uuid, g]),
);

describe("idle rule", () => {
  const stats = [
    stat("g-held", "h1", { memMaxBytes: 12 * GIB, processesMax: 1 }),
    stat("g-empty", "h1"),
    stat("g-busy", "h1", { utilMax: 0.93, utilAvg: 0.8 }),
    stat("g-dev", "h2"),
  ];
  const idleParams = {
    utilThreshold: 0.05,
    durationMinutes: 30,
    heldMemRatio: 0.01,
    notify: "held_and_empty",
  };

  it("tells held-but-idle from empty, names the owner and the GPU's hourly cost", () => {
    const c = evaluateIdle(rule("idle", idleParams), stats, hosts, gpus, NOW, 15);
    const byGpu = new Map(c.map((x) => [x.gpuUuid, x]));
    expect([...byGpu.keys()].sort()).toEqual(["g-dev", "g-empty", "g-held"]);
    expect(byGpu.get("g-held")?.details).toMatchObject({ idleKind: "held", processes: 1 });
    expect(byGpu.get("g-held")?.summary).toMatch(
      /GPU 0 on host-h1 held but idle \(12\.0 GiB allocated, 1 process\)/,
    );
    expect(byGpu.get("g-held")?.summary).toContain("owner alice");
    // $32.7726/h ÷ 8 GPUs = $4.096575 → $4.10/h
    expect(byGpu.get("g-held")?.summary).toContain("$4.10/h");
    expect(byGpu.get("g-empty")?.details).toMatchObject({ idleKind: "empty" });
    expect(byGpu.get("g-empty")?.summary).toContain("empty and idle");
  });

  it("memory alone (no process) makes a GPU held; a trace of memory does not", () => {
    const c = evaluateIdle(
      rule("idle", idleParams),
      [
        stat("g-held", "h1", { memMaxBytes: 2 * GIB }),
        stat("g-empty", "h1", { memMaxBytes: 0.1 * GIB }),
      ],
      hosts,
      gpus,
      NOW,
      15,
    );
    expect(c.map((x) => x.details.idleKind)).toEqual(["held", "empty"]);
  });

  it("needs readings over half the window, recent ones, and honours notify=held", () => {
    const sparse = [stat("g-held", "h1", { utilCoverage: 0.3, processesMax: 1 })];
    expect(evaluateIdle(rule("idle", idleParams), sparse, hosts, gpus, NOW, 15)).toEqual([]);
    const stale = [stat("g-held", "h1", { lastAt: new Date(NOW.getTime() - 10 * 60_000) })];
    expect(evaluateIdle(rule("idle", idleParams), stale, hosts, gpus, NOW, 15)).toEqual([]);
    const heldOnly = evaluateIdle(
      rule("idle", { ...idleParams, notify: "held" }),
      stats,
      hosts,
      gpus,
      NOW,
      15,
    );
    expect(heldOnly.map((x) => x.gpuUuid)).toEqual(["g-held"]);
  });

  it("scopes to a team and excludes hosts by label", () => {
    const team = evaluateIdle(
      rule("idle", idleParams, { scopeKind: "team", scopeValue: "vision" }),
      stats,
      hosts,
      gpus,
      NOW,
      15,
    );
    expect(team.map((x) => x.gpuUuid)).toEqual(["g-dev"]);
    const excluded = evaluateIdle(
      rule("idle", idleParams, { excludeLabels: { env: "dev" } }),
      stats,
      hosts,
      gpus,
      NOW,
      15,
    );
    expect(excluded.map((x) => x.gpuUuid).sort()).toEqual(["g-empty", "g-held"]);
    const h1 = hosts.get("h1");
    if (!h1) throw new Error("fixture");
    expect(hostInScope(rule("idle", {}, { scopeKind: "host", scopeValue: "host-h1" }), h1)).toBe(
      true,
    );
    expect(hostInScope(rule("idle", {}, { excludeLabels: { team: "*" } }), h1)).toBe(false);
  });
});

describe("health rules", () => {
  it("exporter silent for more than 2 intervals fires; a fresh one does not", () => {
    const hs = [
      host("a", { lastSeen: new Date(NOW.getTime() - 20_000) }),
      host("b", { lastSeen: new Date(NOW.getTime() - 60_000), lastError: "connection refused" }),
      host("c", { lastSeen: null, firstSeen: new Date(NOW.getTime() - 3600_000) }),
    ];
    const c = evaluateExporterDown(rule("exporter_down", { missedIntervals: 2 }), hs, NOW, 15);
    expect(c.map((x) => x.hostId)).toEqual(["b", "c"]);
    expect(c[0]?.summary).toContain("connection refused");
    expect(c[0]?.severity).toBe("critical");
  });

  it("a GPU missing from a reporting host fires; MIG slices and silent hosts do not", () => {
    const gs = [
      gpu("ok", "h1", 0),
      gpu("gone", "h1", 1, { lastSeen: new Date(NOW.getTime() - 5 * 60_000) }),
      gpu("slice", "h1", 1, { parentUuid: "gone", lastSeen: null }),
      gpu("h2-gone", "h2", 0, { lastSeen: new Date(NOW.getTime() - 5 * 60_000) }),
    ];
    const hs = new Map([
      ["h1", host("h1")],
      ["h2", host("h2", { lastSeen: new Date(NOW.getTime() - 10 * 60_000) })],
    ]);
    const c = evaluateGpuMissing(rule("gpu_missing", { missedIntervals: 2 }), hs, gs, NOW, 15);
    expect(c.map((x) => x.gpuUuid)).toEqual(["gone"]);
  });

  it("ECC errors rising, temperature above the limit, sustained throttling", () => {
    const stats = [
      stat("g-held", "h1", { eccUncorrectedIncrease: 2, tempAvg: 91, powerRatio: 0.95 }),
      stat("g-empty", "h1", { eccUncorrectedIncrease: 0, tempAvg: 84, thermalRatio: 0.5 }),
      stat("g-busy", "h1", {
        eccUncorrectedIncrease: null,
        tempAvg: 95,
        tempCoverage: 0.2,
        throttleCoverage: 0.1,
        thermalRatio: 1,
      }),
    ];
    const input = (kind: RuleFacts["kind"], params: Record<string, unknown>) => ({
      rule: rule(kind, params),
      stats,
      hosts,
      gpus,
    });
    expect(
      evaluateEcc(input("ecc", { windowMinutes: 1440, minIncrease: 1 })).map((c) => c.gpuUuid),
    ).toEqual(["g-held"]);
    const hot = evaluateTemperature(input("temperature", { limitCelsius: 85, durationMinutes: 5 }));
    expect(hot.map((c) => c.gpuUuid)).toEqual(["g-held"]);
    expect(hot[0]?.summary).toContain("91.0 °C");
    const thr = evaluateThrottle(
      input("throttle", { classes: ["thermal", "power"], minRatio: 0.8, durationMinutes: 15 }),
    );
    expect(thr.map((c) => c.gpuUuid)).toEqual(["g-held"]);
    expect(thr[0]?.summary).toContain("power 95 %");
    const thermalOnly = evaluateThrottle(
      input("throttle", { classes: ["thermal"], minRatio: 0.8, durationMinutes: 15 }),
    );
    expect(thermalOnly).toEqual([]);
  });
});

describe("budget rule", () => {
  const subject = (
    spend: bigint,
    days: number,
    extra: Partial<BudgetSubject> = {},
  ): BudgetSubject => {
    const from = new Date("2026-11-01T00:00:00Z");
    return {
      id: "b1",
      name: "Team research",
      scopeKind: "team",
      scopeValue: "research",
      amountMicros: 1_000_000_000n,
      currency: "USD",
      owners: ["alice", "bob"],
      figures: budgetFigures({
        amountMicros: 1_000_000_000n,
        thresholds: [50, 80, 100],
        spendMicros: spend,
        idleMicros: spend / 4n,
        dataFrom: from,
        dataTo: new Date(from.getTime() + days * 86_400_000),
        now: new Date(from.getTime() + days * 86_400_000 + 1800_000),
      }),
      ...extra,
    };
  };

  it("crosses 80 % on actual and 100 % on forecast, with amounts, percentages and idle spend", () => {
    // $820 of $1,000 after 10 of 30 days: 82 % actual, forecast $2,460 (246 %)
    const c = evaluateBudgets(rule("budget", { basis: ["actual", "forecast"] }), [
      subject(820_000_000n, 10),
    ]);
    const actual = c.find((x) => x.details.basis === "actual");
    const forecast = c.find((x) => x.details.basis === "forecast");
    expect(actual?.level).toBe(80);
    expect(actual?.severity).toBe("warning");
    expect(actual?.summary).toContain("at 82.0 %");
    expect(actual?.summary).toContain("$820.00 of $1,000.00");
    expect(actual?.summary).toContain("forecast $2,460.00 (246.0 %)");
    expect(actual?.summary).toContain("idle GPUs cost $205.00 (25.0 % of spend)");
    expect(actual?.summary).toContain("owners alice, bob");
    expect(forecast?.level).toBe(100);
    expect(forecast?.severity).toBe("critical");
    expect(actual?.team).toBe("research");
    expect(actual?.fingerprint).toBe("r1:budget:b1:2026-11:actual");
  });

  it("gives no forecast alert before 3 days of data", () => {
    const c = evaluateBudgets(rule("budget", { basis: ["actual", "forecast"] }), [
      subject(600_000_000n, 2),
    ]);
    expect(c.map((x) => [x.details.basis, x.level])).toEqual([["actual", 50]]);
    expect(c[0]?.summary).toContain("no forecast yet");
  });

  it("a team-scoped rule only sees that team's budget", () => {
    const r = rule("budget", { basis: ["actual"] }, { scopeKind: "team", scopeValue: "vision" });
    expect(evaluateBudgets(r, [subject(900_000_000n, 10)])).toEqual([]);
  });
});
