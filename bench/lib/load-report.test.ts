import { describe, expect, it } from "vitest";
import type { Call } from "./load-clients.ts";
import {
  endpointRows,
  figures,
  goals,
  lostWrites,
  summaryRows,
  verdict,
  type StoreResult,
} from "./load-report.ts";

function at<T>(xs: readonly T[], i: number): T {
  const x = xs[i];
  if (x === undefined) throw new Error(`no item ${i}`);
  return x;
}

const calls = (endpoint: string, ms: number[], status = 200): Call[] =>
  ms.map((m) => ({ endpoint, status, ms: m }));

function result(over: Partial<StoreResult> = {}): StoreResult {
  const readOnly = figures({
    calls: calls(
      "fleet",
      Array.from({ length: 100 }, () => 10),
    ),
    seconds: 10,
    load: [1, 2],
    appCpuS: 0.5,
  });
  const mixed = figures({
    calls: [
      ...calls(
        "fleet",
        Array.from({ length: 50 }, () => 100),
      ),
      ...calls("sign-in", [900]),
    ],
    seconds: 10,
    load: [2, 3],
    appCpuS: 1.02,
  });
  return {
    store: "SQLite",
    label: "test",
    readOnly,
    mixed,
    endpoints: endpointRows([...calls("fleet", [100, 100]), ...calls("sign-in", [900], 429)]),
    checks: [
      ["budgets created", 3, 3],
      ["alerts acknowledged", 2, 2],
    ],
    idleCpuShare: 0.1,
    clients: 20,
    ...over,
  };
}

describe("bench:load report", () => {
  it("phase figures: rate, percentiles, 5xx and unanswered, app CPU per request", () => {
    const f = figures({
      calls: [...calls("a", [1, 2, 3, 4]), ...calls("a", [5], 503), ...calls("a", [6], 0)],
      seconds: 2,
      load: [1, 1],
      appCpuS: 0.06,
    });
    expect(f).toMatchObject({ requests: 6, perS: 3, p50: 3, p95: 6, fivexx: 1, none: 1 });
    expect(f.cpuMsPerReq).toBeCloseTo(10);
  });

  it("endpoints are listed slowest p95 first with their statuses", () => {
    const rows = endpointRows([...calls("fast", [1, 2]), ...calls("slow", [50], 429)]);
    expect(rows.map((r) => r[0])).toEqual(["slow", "fast"]);
    expect(rows[0]?.[5]).toBe("429: 1");
  });

  it("goals: throughput ratio, p95 and lost writes, each met or with its reason", () => {
    const [ratio, p95, lost] = goals(result()).map((g) => ({ ...g, v: verdict(g) }));
    expect(ratio?.figure).toBe("5.1 vs 10.0 = 0.51×");
    expect(ratio?.met).toBe(true);
    expect(p95?.met).toBe(true); // p95 of 50 × 100 ms and one 900 ms is 100 ms
    expect(lost?.v).toBe("met");
    expect(lost?.figure).toBe("0 of 5");
  });

  it("a write the store lacks is counted lost and named", () => {
    const r = result({ checks: [["budgets created", 3, 1]] });
    expect(lostWrites(r.checks)).toBe(2);
    const lost = at(goals(r), 2);
    expect(lost.met).toBe(false);
    expect(verdict(lost)).toContain("budgets created: 3 answered, 1 stored");
  });

  it("a slow mixed phase is not met, naming the slowest endpoint and the load average", () => {
    const slow = figures({
      calls: calls(
        "sign-in",
        Array.from({ length: 20 }, () => 4000),
      ),
      seconds: 10,
      load: [9, 12],
      appCpuS: 2,
    });
    const g = goals(result({ mixed: slow }));
    expect(at(g, 0).met).toBe(false);
    expect(at(g, 1).met).toBe(false);
    expect(verdict(at(g, 1))).toMatch(
      /20 clients at 2\.0 req\/s wait 10\.0 s .*slowest sign-in.*load average 9\.0 → 12\.0/,
    );
  });

  it("one summary row per store and phase", () => {
    const rows = summaryRows([result(), result({ store: "PostgreSQL" })]);
    expect(rows.map((r) => `${r[0]} ${r[1]}`)).toEqual([
      "SQLite read-only (/api/fleet)",
      "SQLite mixed",
      "PostgreSQL read-only (/api/fleet)",
      "PostgreSQL mixed",
    ]);
    expect(rows[1]?.[9]).toBe("20.0"); // 1.02 s of CPU over 51 requests
  });
});
