// The counts behind `npm test`'s last lines: vitest's and Playwright's JSON reports, and the tests
// a suite that could not run would have run, so that they are counted as skipped.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

type Json = Record<string, unknown>;

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

export function addCounts(a: Counts, b: Counts): Counts {
  return {
    passed: a.passed + b.passed,
    failed: a.failed + b.failed,
    skipped: a.skipped + b.skipped,
  };
}

/** vitest's `--reporter=json` output. */
export function vitestCounts(j: Json): Counts {
  return {
    passed: num(j.numPassedTests),
    failed: num(j.numFailedTests),
    skipped: num(j.numPendingTests) + num(j.numTodoTests),
  };
}

/** Playwright's JSON reporter output (a run, or `--list`, where every test reads as skipped). */
export function playwrightCounts(j: Json): Counts {
  const s = (j.stats ?? {}) as Json;
  return {
    passed: num(s.expected) + num(s.flaky),
    failed: num(s.unexpected),
    skipped: num(s.skipped),
  };
}

/** Test files the "postgres" vitest project runs a second time: those that call makeTestDb(). */
export function isDbTestSource(source: string): boolean {
  return source.includes("makeTestDb(");
}

/** The "postgres" project's files under `dir` (vitest.config.ts lists lib/ and app/). */
export function dbTestFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.test\.tsx?$/.test(f) && !f.includes("node_modules"))
    .map((f) => join(dir, f))
    .filter((f) => isDbTestSource(readFileSync(f, "utf8")));
}

/**
 * Tests the PostgreSQL run would have repeated: every test of the SQLite run in `dbFiles`
 * (paths relative to `root`; the report has absolute ones).
 */
export function testsInFiles(j: Json, root: string, dbFiles: string[]): number {
  const wanted = new Set(dbFiles.map((f) => f.replaceAll("\\", "/")));
  const results = Array.isArray(j.testResults) ? (j.testResults as Json[]) : [];
  let n = 0;
  for (const r of results) {
    const name = typeof r.name === "string" ? relative(root, r.name).replaceAll("\\", "/") : "";
    if (wanted.has(name) && Array.isArray(r.assertionResults)) n += r.assertionResults.length;
  }
  return n;
}

export type SuiteState =
  | { state: "ran"; detail?: string }
  | { state: "skipped"; reason: string; tests: number }
  | { state: "not reached" };

export interface Suites {
  sqlite: SuiteState;
  postgres: SuiteState;
  browser: SuiteState;
}

function describe(name: string, s: SuiteState): string {
  if (s.state === "ran") return `${name} ran${s.detail ? ` (${s.detail})` : ""}`;
  if (s.state === "skipped")
    return `${name} skipped: ${s.reason} (${s.tests} tests counted as skipped)`;
  return `${name} not reached`;
}

/** The two last lines: counts (the format CI greps for), then which suites ran. */
export function summaryLines(c: Counts, s: Suites): string[] {
  return [
    `tests: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`,
    `suites: ${[
      describe("SQLite", s.sqlite),
      describe("PostgreSQL", s.postgres),
      describe("browser", s.browser),
    ].join("; ")}`,
  ];
}
