import { describe, expect, it } from "vitest";
import type { AlertDto } from "@/lib/zod/schemas/alert.ts";
import { gpuLabel, groupAlerts, worstSeverity, worstState } from "./group-alerts.ts";

let n = 0;
function alert(patch: Partial<AlertDto> & { gpuIndex?: number; idleKind?: string }): AlertDto {
  n += 1;
  const { gpuIndex, idleKind, ...rest } = patch;
  return {
    id: `a${n}`,
    ruleId: "idle-rule",
    ruleName: "Idle GPUs",
    kind: "idle",
    severity: "warning",
    state: "firing",
    snoozedUntil: null,
    snoozed: false,
    summary: `alert ${n}`,
    details: {
      ...(gpuIndex === undefined ? {} : { gpuIndex }),
      ...(idleKind === undefined ? {} : { idleKind }),
    },
    hostId: "h1",
    hostname: "gpu-1",
    gpuUuid: null,
    team: "research",
    project: "llm",
    owner: "ada",
    startsAt: "2026-11-30T10:00:00.000Z",
    endsAt: null,
    acknowledgedBy: null,
    acknowledgedAt: null,
    resolvedBy: null,
    clearSince: null,
    updatedAt: "2026-11-30T10:00:00.000Z",
    ...rest,
  };
}

describe("groupAlerts", () => {
  it("folds one rule's alerts on one host into one group with the count, sorted by GPU", () => {
    const idle = [7, 5, 6, 4].map((gpuIndex) => alert({ gpuIndex, idleKind: "empty" }));
    const groups = groupAlerts(idle);
    expect(groups).toHaveLength(1);
    const [g] = groups;
    expect(g).toMatchObject({
      key: "idle-rule:h1",
      count: 4,
      kind: "idle",
      hostname: "gpu-1",
      state: "firing",
      severity: "warning",
      idleKinds: ["empty"],
      gpuIndexes: [4, 5, 6, 7],
    });
    expect(g?.alerts.map((a) => a.details.gpuIndex)).toEqual([4, 5, 6, 7]);
    expect(g?.ids).toEqual(g?.alerts.map((a) => a.id));
  });

  it("shows the worst state and severity, the earliest start and how many are snoozed", () => {
    const groups = groupAlerts([
      alert({ state: "acknowledged", startsAt: "2026-11-30T12:00:00.000Z", gpuIndex: 0 }),
      alert({ state: "firing", severity: "critical", gpuIndex: 1, idleKind: "held" }),
      alert({ state: "resolved", startsAt: "2026-11-29T08:00:00.000Z", gpuIndex: 2 }),
      alert({ snoozed: true, snoozedUntil: "2026-12-01T00:00:00.000Z", idleKind: "empty" }),
    ]);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({
      count: 4,
      state: "firing",
      stateCounts: { firing: 2, acknowledged: 1, resolved: 1 },
      severity: "critical",
      startsAt: "2026-11-29T08:00:00.000Z",
      snoozedCount: 1,
      idleKinds: ["empty", "held"],
      gpuIndexes: [0, 1, 2],
    });
    // an alert without a GPU index comes last
    expect(groups[0]?.alerts.at(-1)?.snoozed).toBe(true);
  });

  it("keeps other hosts, other rules and other kinds apart, in the list's order", () => {
    const a = alert({ gpuIndex: 0 });
    const otherHost = alert({ hostId: "h2", hostname: "gpu-2" });
    const b = alert({ gpuIndex: 1 });
    const otherRule = alert({ ruleId: "strict-idle", ruleName: "Strict idle" });
    const throttle = alert({ ruleId: "throttle-rule", kind: "throttle" });
    const groups = groupAlerts([a, otherHost, b, otherRule, throttle]);
    expect(groups.map((g) => g.ids)).toEqual([
      [a.id, b.id],
      [otherHost.id],
      [otherRule.id],
      [throttle.id],
    ]);
    expect(groups.map((g) => g.key)).toEqual([
      "idle-rule:h1",
      "idle-rule:h2",
      "strict-idle:h1",
      "throttle-rule:h1",
    ]);
  });

  it("never groups alerts without a host (budgets, fleet-wide)", () => {
    const budgets = [1, 2, 3].map(() =>
      alert({ ruleId: "budgets", kind: "budget", hostId: null, hostname: null }),
    );
    const groups = groupAlerts(budgets);
    expect(groups.map((g) => g.count)).toEqual([1, 1, 1]);
    expect(groups.map((g) => g.key)).toEqual(budgets.map((b) => `alert:${b.id}`));
  });

  it("every alert lands in exactly one group", () => {
    const list = Array.from({ length: 30 }, (_, i) =>
      alert({ hostId: `h${i % 4}`, ruleId: `r${i % 3}`, gpuIndex: i % 8 }),
    );
    const ids = groupAlerts(list).flatMap((g) => g.ids);
    expect(ids.sort()).toEqual(list.map((a) => a.id).sort());
    expect(groupAlerts([])).toEqual([]);
  });
});

describe("helpers", () => {
  it("ranks states and severities", () => {
    expect(worstState(["resolved", "acknowledged"])).toBe("acknowledged");
    expect(worstState(["acknowledged", "firing", "resolved"])).toBe("firing");
    expect(worstSeverity(["info", "warning"])).toBe("warning");
    expect(worstSeverity(["warning", "critical", "info"])).toBe("critical");
  });

  it("labels GPU indexes compactly", () => {
    expect(gpuLabel([])).toBe("");
    expect(gpuLabel([3])).toBe("GPU 3");
    expect(gpuLabel([6, 7])).toBe("GPUs 6, 7");
    expect(gpuLabel([4, 5, 6, 7])).toBe("GPUs 4–7");
    expect(gpuLabel([0, 2, 3, 4, 6])).toBe("GPUs 0, 2–4, 6");
  });
});
