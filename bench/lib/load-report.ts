// What `npm run bench:load` prints: per store, the read-only and the mixed phase's throughput and
// latency, the mixed phase by endpoint, the store checked against every successful write answer
// (lost writes), and the issue-27 goals with "met" or what the figures say limits them.
import { cpus } from "node:os";
import { createDb } from "../../lib/db.ts";
import type { Call, Shared } from "./load-clients.ts";
import { f0, f1, percentile, table, type Goal } from "./stats.ts";

const micros = (amount: string) => {
  const [whole = "0", frac = ""] = amount.split(".");
  return BigInt(whole) * 1_000_000n + BigInt((frac + "000000").slice(0, 6));
};

export type Checks = ReadonlyArray<readonly [string, number, number]>;

/** Each kind of write: how many the answers said succeeded, and how many the store holds. */
export async function checkStore(dbUrl: string, s: Shared): Promise<Checks> {
  const db = createDb(dbUrl);
  try {
    const w = s.written;
    const acked = await db.alert.count({
      where: { id: { in: [...w.acknowledged] }, state: "acknowledged" },
    });
    // the event's note is "snoozed until <time>: <the request's note>"
    const notes = await db.alertEvent.findMany({
      where: { note: { startsWith: "snoozed until" } },
      select: { note: true },
    });
    const told = new Set(notes.map((n) => n.note?.split(": ").pop()));
    const snoozes = w.snoozeNotes.filter((t) => told.has(t)).length;
    const created = await db.budget.count({ where: { name: { in: w.budgetsCreated } } });
    const rows = await db.budget.findMany({ where: { id: { in: [...w.budgetAmounts.keys()] } } });
    const current = rows.filter(
      (b) => b.amountMicros === micros(w.budgetAmounts.get(b.id) ?? "0"),
    ).length;
    return [
      ["alerts acknowledged", w.acknowledged.size, acked],
      ["snoozes (one event each)", w.snoozeNotes.length, snoozes],
      ["budgets created", w.budgetsCreated.length, created],
      ["budgets at their last updated amount", w.budgetAmounts.size, current],
    ];
  } finally {
    await db.$disconnect();
  }
}

export interface Phase {
  calls: Call[];
  seconds: number;
  /** 1-minute load average when the clients started and when they stopped */
  load: [number, number];
  /** CPU seconds the app's processes used during the phase */
  appCpuS: number;
}

export interface PhaseFigures {
  requests: number;
  perS: number;
  p50: number;
  p95: number;
  p99: number;
  fivexx: number;
  none: number;
  load: [number, number];
  /** the app's CPU milliseconds per request */
  cpuMsPerReq: number;
}

export function figures(p: Phase): PhaseFigures {
  const ms = p.calls.map((c) => c.ms);
  return {
    requests: p.calls.length,
    perS: p.calls.length / p.seconds,
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    p99: percentile(ms, 99),
    fivexx: p.calls.filter((c) => c.status >= 500).length,
    none: p.calls.filter((c) => c.status === 0).length,
    load: p.load,
    cpuMsPerReq: (p.appCpuS * 1000) / p.calls.length,
  };
}

export const lostWrites = (checks: Checks) =>
  checks.reduce((n, [, said, stored]) => n + Math.max(0, said - stored), 0);

function statuses(cs: Call[]): string {
  const n = new Map<number, number>();
  for (const c of cs) n.set(c.status, (n.get(c.status) ?? 0) + 1);
  return [...n]
    .sort(([a], [b]) => a - b)
    .map(([st, k]) => `${st === 0 ? "no answer" : st}: ${k}`)
    .join(", ");
}

/** The mixed phase by endpoint, slowest p95 first. */
export function endpointRows(calls: Call[]): Array<Array<string | number>> {
  const by = new Map<string, Call[]>();
  for (const c of calls) by.set(c.endpoint, [...(by.get(c.endpoint) ?? []), c]);
  return [...by]
    .map(([e, cs]) => {
      const ms = cs.map((c) => c.ms);
      return { e, cs, p50: percentile(ms, 50), p95: percentile(ms, 95), p99: percentile(ms, 99) };
    })
    .sort((a, b) => b.p95 - a.p95)
    .map((r) => [r.e, r.cs.length, f0(r.p50), f0(r.p95), f0(r.p99), statuses(r.cs)]);
}

export interface StoreResult {
  store: string;
  label: string;
  readOnly: PhaseFigures;
  mixed: PhaseFigures;
  endpoints: Array<Array<string | number>>;
  checks: Checks;
  /** the app's CPU (share of one core) with no clients: the collector and its jobs */
  idleCpuShare: number;
  /** concurrent clients (each sends its next request when answered) */
  clients: number;
}

const loadText = (l: [number, number]) => `load average ${f1(l[0])} → ${f1(l[1])}`;

/** The issue's three goals for one store, each met or with what the figures show limits it. */
export function goals(r: StoreResult): Goal[] {
  const ratio = r.mixed.perS / r.readOnly.perS;
  const slowest = r.endpoints[0];
  const busy = `${loadText(r.mixed.load)} on ${cpus().length} shared cores`;
  const lost = lostWrites(r.checks);
  return [
    {
      goal: `${r.store}: mixed req/s ≥ ½ read-only req/s (same run)`,
      figure: `${f1(r.mixed.perS)} vs ${f1(r.readOnly.perS)} = ${ratio.toFixed(2)}×`,
      met: ratio >= 0.5,
      reason:
        `the app's CPU per request: ${f1(r.mixed.cpuMsPerReq)} ms mixed vs ` +
        `${f1(r.readOnly.cpuMsPerReq)} ms per fleet read (${busy})`,
    },
    {
      goal: `${r.store}: mixed p95 < 1 s`,
      figure: `${f0(r.mixed.p95)} ms (p50 ${f0(r.mixed.p50)}, p99 ${f0(r.mixed.p99)})`,
      met: r.mixed.p95 < 1000,
      reason:
        `${r.clients} clients at ${f1(r.mixed.perS)} req/s wait ` +
        `${f1(r.clients / r.mixed.perS)} s per request on average (Little's law), whatever the ` +
        `endpoint (slowest ${slowest?.[0] ?? "?"}, p95 ${slowest?.[3] ?? "?"} ms); ${busy}`,
    },
    {
      goal: `${r.store}: 0 lost writes`,
      figure: `${lost} of ${r.checks.reduce((n, [, said]) => n + said, 0)}`,
      met: lost === 0,
      reason: r.checks
        .filter(([, said, stored]) => stored < said)
        .map(([k, said, stored]) => `${k}: ${said} answered, ${stored} stored`)
        .join("; "),
    },
  ];
}

export function verdict(g: Goal): string {
  if (g.met === null) return g.reason ? `not measured: ${g.reason}` : "not measured";
  return g.met ? "met" : `**not met**${g.reason ? `: ${g.reason}` : ""}`;
}

/** The summary table: one row per store and phase. */
export function summaryRows(results: StoreResult[]): Array<Array<string | number>> {
  return results.flatMap((r) =>
    (
      [
        ["read-only (/api/fleet)", r.readOnly],
        ["mixed", r.mixed],
      ] as const
    ).map(([phase, f]) => [
      r.store,
      phase,
      f.requests,
      f1(f.perS),
      f0(f.p50),
      f0(f.p95),
      f0(f.p99),
      f.fivexx,
      f.none,
      f1(f.cpuMsPerReq),
      `${f1(f.load[0])} → ${f1(f.load[1])}`,
    ]),
  );
}

export function storeLines(r: StoreResult): string[] {
  return [
    `### ${r.label}`,
    "",
    `With no clients the app used ${f1(r.idleCpuShare * 100)} % of a core over one 15 s ` +
      "collection interval (the collector scraping 24 hosts, writing their minutes, and its jobs).",
    "",
    "Mixed phase by endpoint (slowest p95 first):",
    "",
    ...table(["endpoint", "requests", "p50 ms", "p95 ms", "p99 ms", "statuses"], r.endpoints),
    "",
    "Writes: what the answers said succeeded, and what the store holds afterwards.",
    "",
    ...table(
      ["write", "answered 2xx", "in the store"],
      r.checks.map(([k, a, b]) => [k, a, b]),
    ),
  ];
}
