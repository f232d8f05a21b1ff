import { describe, expect, it } from "vitest";
import {
  aptCommands,
  detectTools,
  missingToolsMessage,
  packagesFor,
  parseMode,
  pgBinDir,
  redactUrl,
  type Probe,
} from "./test-setup.ts";
import { playwrightCounts, summaryLines, testsInFiles, vitestCounts } from "./test-setup-report.ts";

/** A machine with exactly these files. */
function machine(files: string[]): Probe {
  const set = new Set(files);
  return {
    exists: (p) => set.has(p),
    list: (dir) => [
      ...new Set(
        files
          .filter((f) => f.startsWith(`${dir}/`))
          .map((f) => f.slice(dir.length + 1).split("/")[0] ?? ""),
      ),
    ],
  };
}

const FULL = [
  "/usr/bin/prometheus",
  "/usr/bin/promtool",
  "/usr/bin/openssl",
  "/usr/bin/prometheus-alertmanager",
  "/usr/bin/prometheus-node-exporter",
  "/usr/bin/chromium",
  "/usr/lib/postgresql/15/bin/initdb",
  "/usr/lib/postgresql/15/bin/postgres",
];
const env = { PATH: "/usr/local/bin:/usr/bin:/bin" };
const all = { browser: true, postgres: true };

describe("detectTools", () => {
  it("finds everything on a machine that has it", () => {
    const tools = detectTools(env, machine(FULL), all);
    expect(tools.map((t) => t.tool)).toEqual([
      "prometheus",
      "promtool",
      "openssl",
      "prometheus-alertmanager",
      "prometheus-node-exporter",
      "chromium",
      "postgresql",
    ]);
    expect(tools.filter((t) => !t.found)).toEqual([]);
    expect(tools.at(-1)?.where).toBe("/usr/lib/postgresql/15/bin");
  });

  it("reports each missing tool with its Debian package and what needs it", () => {
    const tools = detectTools(env, machine([]), all);
    expect(tools.map((t) => [t.tool, t.pkg, t.need, t.found])).toEqual([
      ["prometheus", "prometheus", "tests", false],
      ["promtool", "prometheus", "tests", false],
      ["openssl", "openssl", "tests", false],
      ["prometheus-alertmanager", "prometheus-alertmanager", "tests", false],
      ["prometheus-node-exporter", "prometheus-node-exporter", "bench", false],
      ["chromium", "chromium", "browser", false],
      ["postgresql", "postgresql", "postgres", false],
    ]);
  });

  it("leaves out Chromium without the browser suite and PostgreSQL when a URL is given", () => {
    const tools = detectTools(env, machine([]), { browser: false, postgres: false });
    expect(tools.map((t) => t.tool)).not.toContain("chromium");
    expect(tools.map((t) => t.tool)).not.toContain("postgresql");
  });

  it("follows CHROMIUM_PATH, PROMETHEUS_BIN and PROMTOOL_BIN", () => {
    const e = {
      ...env,
      CHROMIUM_PATH: "/opt/chrome/chrome",
      PROMETHEUS_BIN: "/opt/prom/prometheus",
      PROMTOOL_BIN: "/opt/prom/promtool",
    };
    const tools = detectTools(e, machine(FULL), all);
    const missing = tools.filter((t) => !t.found).map((t) => t.where);
    expect(missing).toEqual(["/opt/prom/prometheus", "/opt/prom/promtool", "/opt/chrome/chrome"]);
  });

  it("wants promtool both at its path and on PATH (the exporter tests run it by name)", () => {
    const onlyPath = detectTools({ PATH: "/usr/bin" }, machine(FULL), all);
    expect(onlyPath.find((t) => t.tool === "promtool")?.found).toBe(true);
    const notOnPath = detectTools({ PATH: "/opt/none" }, machine(FULL), all);
    expect(notOnPath.find((t) => t.tool === "promtool")?.found).toBe(false);
    expect(notOnPath.find((t) => t.tool === "openssl")?.found).toBe(false);
  });
});

describe("pgBinDir", () => {
  const bin = (v: string) => [
    `/usr/lib/postgresql/${v}/bin/initdb`,
    `/usr/lib/postgresql/${v}/bin/postgres`,
  ];

  it("takes the newest version by number, not by string order", () => {
    expect(pgBinDir(env, machine([...bin("9.6"), ...bin("15"), ...bin("16")]))).toEqual({
      dir: "/usr/lib/postgresql/16/bin",
      version: "16",
    });
  });

  it("skips a version whose server binaries are not installed (client only)", () => {
    const files = [...bin("15"), "/usr/lib/postgresql/17/bin/psql"];
    expect(pgBinDir(env, machine(files))?.version).toBe("15");
  });

  it("falls back to initdb and postgres side by side on PATH", () => {
    const files = ["/usr/bin/initdb", "/usr/bin/postgres"];
    expect(pgBinDir(env, machine(files))).toEqual({ dir: "/usr/bin", version: "" });
    expect(pgBinDir(env, machine(["/usr/bin/initdb", "/usr/local/bin/postgres"]))).toBeNull();
    expect(pgBinDir(env, machine([]))).toBeNull();
  });
});

describe("what to install", () => {
  const missing = detectTools(env, machine(["/usr/bin/openssl"]), all).filter((t) => !t.found);

  it("names each package once, in report order", () => {
    expect(packagesFor(missing)).toEqual([
      "prometheus",
      "prometheus-alertmanager",
      "prometheus-node-exporter",
      "chromium",
      "postgresql",
    ]);
  });

  it("builds apt-get update, then one non-interactive install without recommends", () => {
    expect(aptCommands(["prometheus", "chromium"])).toEqual([
      ["apt-get", "update", "-qq"],
      ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "prometheus", "chromium"],
    ]);
    expect(aptCommands([])).toEqual([]);
  });

  it("tells a user who is not root the exact command and the opt-out", () => {
    const text = missingToolsMessage(missing);
    expect(text).toContain(
      "sudo apt-get update && sudo apt-get install -y --no-install-recommends " +
        "prometheus prometheus-alertmanager prometheus-node-exporter chromium postgresql",
    );
    expect(text).toMatch(/^ {2}chromium +\/usr\/bin\/chromium \(the browser suite\)$/m);
    expect(text).toContain("GPUFLEET_TEST_ALLOW_MISSING=1");
  });
});

describe("arguments and URLs", () => {
  it("knows the three modes and refuses anything else", () => {
    expect(parseMode([])).toBe("all");
    expect(parseMode(["unit"])).toBe("unit");
    expect(parseMode(["--setup-only"])).toBe("setup-only");
    expect(() => parseMode(["e2e"])).toThrow(/unknown arguments "e2e".*npm test -- unit/);
    expect(() => parseMode(["unit", "x"])).toThrow(/unknown arguments "unit x"/);
  });

  it("hides the password in logged URLs", () => {
    expect(redactUrl("postgresql://gpufleet:secret@127.0.0.1:5432/gpufleet")).toBe(
      "postgresql://gpufleet:***@127.0.0.1:5432/gpufleet",
    );
    expect(redactUrl("postgresql://127.0.0.1/db")).toBe("postgresql://127.0.0.1/db");
    expect(redactUrl("not a url")).toBe("(not a URL)");
  });
});

describe("counts", () => {
  it("reads vitest's and Playwright's JSON, and zero from anything else", () => {
    const v = { numPassedTests: 5, numFailedTests: 1, numPendingTests: 2, numTodoTests: 1 };
    expect(vitestCounts(v)).toEqual({ passed: 5, failed: 1, skipped: 3 });
    const p = { stats: { expected: 4, flaky: 1, unexpected: 2, skipped: 3 } };
    expect(playwrightCounts(p)).toEqual({ passed: 5, failed: 2, skipped: 3 });
    expect(vitestCounts({ numPassedTests: "7" })).toEqual({ passed: 0, failed: 0, skipped: 0 });
    expect(playwrightCounts({})).toEqual({ passed: 0, failed: 0, skipped: 0 });
  });

  it("counts the tests of the database files the PostgreSQL run would have repeated", () => {
    const report = {
      testResults: [
        { name: "/repo/lib/a.test.ts", assertionResults: [{}, {}, {}] },
        { name: "/repo/lib/b.test.ts", assertionResults: [{}] },
        { name: "/repo/app/c.test.ts", assertionResults: [{}, {}] },
      ],
    };
    expect(testsInFiles(report, "/repo", ["lib/a.test.ts", "app/c.test.ts"])).toBe(5);
    expect(testsInFiles({}, "/repo", ["lib/a.test.ts"])).toBe(0);
  });

  it("ends with the counts line and which suites ran", () => {
    const lines = summaryLines(
      { passed: 10, failed: 0, skipped: 72 },
      {
        sqlite: { state: "ran" },
        postgres: { state: "ran", detail: "throwaway PostgreSQL 15" },
        browser: { state: "skipped", reason: "`npm test -- unit`", tests: 69 },
      },
    );
    expect(lines).toEqual([
      "tests: 10 passed, 0 failed, 72 skipped",
      "suites: SQLite ran; PostgreSQL ran (throwaway PostgreSQL 15); " +
        "browser skipped: `npm test -- unit` (69 tests counted as skipped)",
    ]);
    const early = summaryLines(
      { passed: 0, failed: 0, skipped: 0 },
      {
        sqlite: { state: "not reached" },
        postgres: { state: "ran" },
        browser: { state: "not reached" },
      },
    );
    expect(early[1]).toBe("suites: SQLite not reached; PostgreSQL ran; browser not reached");
  });
});
