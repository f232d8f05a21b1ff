// `npm test`: installs what the suite needs (as root) or says what to install, starts a throwaway
// PostgreSQL, then lint, format, types, unit + integration tests on SQLite and PostgreSQL, and the
// browser suite against the demo. Stops at the first failing stage; ends with the counts of all
// tests and which suites ran. `npm test -- unit` leaves out the browser suite, `-- --setup-only`
// only sets up (and keeps PostgreSQL running until Ctrl-C).
import { execFile, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { constants } from "node:os";
import { promisify } from "node:util";
import {
  aptCommands,
  detectTools,
  missingToolsMessage,
  packagesFor,
  parseMode,
  pgBinDir,
  redactUrl,
  type Mode,
  type Probe,
  type ToolStatus,
} from "./lib/test-setup.ts";
import { ThrowawayPg } from "./lib/test-setup-pg.ts";
import {
  addCounts,
  dbTestFiles,
  playwrightCounts,
  summaryLines,
  testsInFiles,
  vitestCounts,
  type Counts,
  type Suites,
} from "./lib/test-setup-report.ts";
import { needsBuild } from "./lib/build-check.ts";

const probe: Probe = {
  exists: existsSync,
  list: (dir) => (existsSync(dir) ? readdirSync(dir) : []),
};
const allowMissing = process.env.GPUFLEET_TEST_ALLOW_MISSING === "1";
let counts: Counts = { passed: 0, failed: 0, skipped: 0 };
const suites: Suites = {
  sqlite: { state: "not reached" },
  postgres: { state: "not reached" },
  browser: { state: "not reached" },
};
const pgServer = { current: undefined as ThrowawayPg | undefined };
let current: ChildProcess | undefined;
let stopping = false;

// the server and its directory go on every way out: success, a failed stage, an exception
process.on("exit", () => pgServer.current?.stop());
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    const code = 128 + constants.signals[signal];
    console.error(`\nnpm test: ${signal}, stopping`);
    const child = current;
    if (!child || child.exitCode !== null || child.signalCode !== null) process.exit(code);
    const force = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.once("exit", () => {
      clearTimeout(force);
      process.exit(code);
    });
    child.kill(signal === "SIGINT" ? "SIGINT" : "SIGTERM");
  });
}

function readJson(file: string): Record<string, unknown> | null {
  return existsSync(file)
    ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>)
    : null;
}

function finish(code: number): never {
  const vitest = readJson("test-results/vitest.json");
  const playwright = readJson("test-results/playwright.json");
  if (vitest) counts = addCounts(counts, vitestCounts(vitest));
  if (vitest && suites.postgres.state === "not reached" && suites.sqlite.state === "ran") {
    // no PostgreSQL: every test of the database files counts once more, as skipped
    const files = [...dbTestFiles("lib"), ...dbTestFiles("app"), ...dbTestFiles("fault")];
    const tests = testsInFiles(vitest, process.cwd(), files);
    suites.postgres = { state: "skipped", reason: "no PostgreSQL server binaries", tests };
    counts.skipped += tests;
  }
  if (playwright) counts = addCounts(counts, playwrightCounts(playwright));
  console.log(`\n${summaryLines(counts, suites).join("\n")}`);
  process.exit(code);
}

async function run(label: string, cmd: string, args: string[]): Promise<void> {
  console.log(`\n=== ${label}: ${cmd} ${args.join(" ")}`);
  const started = Date.now();
  const child = spawn(cmd, args, {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  current = child;
  const status = await new Promise<number>((resolve) => {
    child.on("error", (e) => {
      console.error(`${cmd}: ${e.message}`);
      resolve(127);
    });
    child.on("exit", (c, s) => resolve(c ?? 128 + (s ? constants.signals[s] : 0)));
  });
  current = undefined;
  if (stopping) return new Promise<void>(() => {}); // the signal handler exits
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`=== ${label}: ${status === 0 ? "ok" : "FAILED"} in ${secs} s`);
  if (status !== 0) finish(status);
}

/** As root: apt-get installs the missing packages. Returns the tools still missing. */
function install(missing: ToolStatus[], detect: () => ToolStatus[]): ToolStatus[] {
  for (const argv of aptCommands(packagesFor(missing))) {
    const [cmd = "", ...args] = argv;
    console.log(`npm test: ${argv.join(" ")}`);
    const r = spawnSync(cmd, args, {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (r.status !== 0) {
      console.error(`npm test: \`${argv.join(" ")}\` failed (${r.error?.message ?? r.status})`);
      break;
    }
  }
  return detect().filter((t) => !t.found);
}

/** Tools first: installed as root, else listed for the user to install (or, opted out, skipped). */
function setupTools(mode: Mode): ToolStatus[] {
  const opts = { browser: mode === "all", postgres: !process.env.GPUFLEET_TEST_PG_URL };
  const detect = () => detectTools(process.env, probe, opts);
  let missing = detect().filter((t) => !t.found);
  if (missing.length > 0 && process.getuid?.() === 0) missing = install(missing, detect);
  if (missing.length === 0) return [];
  const blocking = missing.some((t) => t.need !== "bench");
  console.error(`\n${missingToolsMessage(missing)}\n`);
  if (blocking && !allowMissing) process.exit(1);
  return missing;
}

/**
 * GPUFLEET_TEST_PG_URL as given, else a throwaway cluster's, else none (opted out). Returns what
 * the summary says the PostgreSQL run used, or null.
 */
async function setupPostgres(missing: ToolStatus[]): Promise<string | null> {
  const given = process.env.GPUFLEET_TEST_PG_URL;
  if (given) return `GPUFLEET_TEST_PG_URL=${redactUrl(given)}`;
  const bin = pgBinDir(process.env, probe);
  if (!bin || missing.some((t) => t.need === "postgres")) return null;
  const server = new ThrowawayPg(bin.dir);
  pgServer.current = server;
  const started = Date.now();
  const url = await server.start();
  process.env.GPUFLEET_TEST_PG_URL = url;
  const version = bin.version;
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `npm test: throwaway PostgreSQL ${version} on 127.0.0.1:${server.port} in ${server.dir} ` +
      `(started in ${secs} s; removed at exit)`,
  );
  return `throwaway PostgreSQL ${version}`.trim();
}

async function listedBrowserTests(): Promise<number> {
  const { stdout } = await promisify(execFile)(
    "npx",
    ["playwright", "test", "--list", "--reporter=json"],
    { maxBuffer: 64 << 20 },
  );
  return playwrightCounts(JSON.parse(stdout) as Record<string, unknown>).skipped;
}

async function main(): Promise<void> {
  let mode: Mode;
  try {
    mode = parseMode(process.argv.slice(2));
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  const missing = setupTools(mode);
  const pg = await setupPostgres(missing);
  if (mode === "setup-only") {
    const url = process.env.GPUFLEET_TEST_PG_URL;
    console.log(
      url ? `GPUFLEET_TEST_PG_URL=${url}` : "no PostgreSQL (GPUFLEET_TEST_ALLOW_MISSING)",
    );
    console.log("npm test: set up; Ctrl-C stops PostgreSQL and removes its directory");
    setInterval(() => {}, 1 << 30);
    return;
  }

  rmSync("test-results", { recursive: true, force: true });
  if (!existsSync("lib/generated/prisma/client.ts"))
    await run("prisma generate", "npx", ["prisma", "generate"]);
  await run("lint", "npx", ["eslint", ".", "--max-warnings=0"]);
  // the import layers and cycles (.dependency-cruiser.cjs); `npm run lint` runs both
  await run("import layers", "npm", ["run", "--silent", "lint:deps"]);
  await run("format", "npx", ["prettier", "--check", "."]);
  await run("typecheck", "npx", ["tsc", "--noEmit"]);
  suites.sqlite = { state: "ran" };
  if (pg) suites.postgres = { state: "ran", detail: pg };
  await run("unit + integration", "npx", [
    "vitest",
    "run",
    "--reporter=default",
    "--reporter=json",
    "--outputFile.json=test-results/vitest.json",
  ]);

  const chromium = missing.find((t) => t.tool === "chromium");
  if (mode === "unit" || chromium) {
    const tests = await listedBrowserTests();
    const reason = chromium ? `no Chromium at ${chromium.where}` : "`npm test -- unit`";
    suites.browser = { state: "skipped", reason, tests };
    counts.skipped += tests;
  } else {
    suites.browser = { state: "ran" };
    // built as its own stage, so the browser stage's server start (npm start) only seeds the demo
    // and its start-up limit (playwright.config.ts) is not spent compiling
    if (needsBuild()) await run("build", "npx", ["next", "build"]);
    await run("browser (Playwright)", "npx", ["playwright", "test"]);
  }
  finish(0);
}

main().catch((e: unknown) => {
  console.error(`npm test: ${e instanceof Error ? e.message : String(e)}`);
  finish(1);
});
