// What `npm test` needs besides node_modules, how to tell it is there, and what to install when it
// is not. Pure: the file system and PATH come in through `Probe`, so the tests can fake a machine.
import { dirname, join } from "node:path";

export type Need = "tests" | "browser" | "postgres" | "bench";

export interface ToolStatus {
  tool: string;
  /** the Debian package that provides it */
  pkg: string;
  /** where it was looked for (a path, or a name on PATH) */
  where: string;
  found: boolean;
  need: Need;
  why: string;
}

export interface Probe {
  exists(path: string): boolean;
  /** entries of a directory; [] when it does not exist */
  list(dir: string): string[];
}

export type Env = Record<string, string | undefined>;

export const PG_LIB_DIR = "/usr/lib/postgresql";

export function onPath(name: string, env: Env, probe: Probe): string | null {
  for (const dir of (env.PATH ?? "").split(":")) {
    if (dir && probe.exists(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** PostgreSQL's server binaries: the newest /usr/lib/postgresql/<version>/bin, else PATH. */
export function pgBinDir(env: Env, probe: Probe): { dir: string; version: string } | null {
  const versions = probe
    .list(PG_LIB_DIR)
    .filter((v) => /^\d+(\.\d+)?$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const dir = join(PG_LIB_DIR, version, "bin");
    if (probe.exists(join(dir, "initdb")) && probe.exists(join(dir, "postgres")))
      return { dir, version };
  }
  const initdb = onPath("initdb", env, probe);
  const postgres = onPath("postgres", env, probe);
  if (initdb && postgres && dirname(initdb) === dirname(postgres))
    return { dir: dirname(initdb), version: "" };
  return null;
}

export interface ToolOptions {
  /** the browser suite runs (not `npm test -- unit`) */
  browser: boolean;
  /** a throwaway PostgreSQL is needed (GPUFLEET_TEST_PG_URL is not set) */
  postgres: boolean;
}

/** Every tool the suite uses, found or not, in the order they are reported. */
export function detectTools(env: Env, probe: Probe, opts: ToolOptions): ToolStatus[] {
  const file = (tool: string, pkg: string, path: string, need: Need, why: string) => ({
    tool,
    pkg,
    where: path,
    found: probe.exists(path),
    need,
    why,
  });
  const promtool = env.PROMTOOL_BIN ?? "/usr/bin/promtool";
  const tools: ToolStatus[] = [
    file(
      "prometheus",
      "prometheus",
      env.PROMETHEUS_BIN ?? "/usr/bin/prometheus",
      "tests",
      "the Prometheus integration tests",
    ),
    {
      tool: "promtool",
      pkg: "prometheus",
      where: promtool,
      // recording-rules.test.ts runs the path, the exporter tests run `promtool` from PATH
      found: probe.exists(promtool) && onPath("promtool", env, probe) !== null,
      need: "tests",
      why: "rule, config and /metrics checks",
    },
    {
      tool: "openssl",
      pkg: "openssl",
      where: "openssl on PATH",
      found: onPath("openssl", env, probe) !== null,
      need: "tests",
      why: "TLS test certificates",
    },
    file(
      "prometheus-alertmanager",
      "prometheus-alertmanager",
      env.ALERTMANAGER_BIN ?? "/usr/bin/prometheus-alertmanager",
      "tests",
      "the Alertmanager (API v2) channel tests",
    ),
    file(
      "prometheus-node-exporter",
      "prometheus-node-exporter",
      "/usr/bin/prometheus-node-exporter",
      "bench",
      "`npm run bench:exporter` only; no test needs it",
    ),
  ];
  if (opts.browser)
    tools.push(
      file(
        "chromium",
        "chromium",
        env.CHROMIUM_PATH ?? "/usr/bin/chromium",
        "browser",
        "the browser suite",
      ),
    );
  if (opts.postgres) {
    const pg = pgBinDir(env, probe);
    tools.push({
      tool: "postgresql",
      pkg: "postgresql",
      where: pg ? pg.dir : `${PG_LIB_DIR}/*/bin/{initdb,postgres}`,
      found: pg !== null,
      need: "postgres",
      why: "the PostgreSQL run of the database tests",
    });
  }
  return tools;
}

/** Debian packages for the missing tools, once each, in report order. */
export function packagesFor(missing: ToolStatus[]): string[] {
  return [...new Set(missing.map((t) => t.pkg))];
}

export function aptCommands(pkgs: string[]): string[][] {
  if (pkgs.length === 0) return [];
  return [
    ["apt-get", "update", "-qq"],
    ["apt-get", "install", "-y", "-qq", "--no-install-recommends", ...pkgs],
  ];
}

/** What a user who cannot install packages reads before `npm test` stops. */
export function missingToolsMessage(missing: ToolStatus[]): string {
  const width = Math.max(...missing.map((t) => t.tool.length));
  const pkgs = packagesFor(missing).join(" ");
  return [
    "npm test: these tools are missing:",
    ...missing.map((t) => `  ${t.tool.padEnd(width)}  ${t.where} (${t.why})`),
    "Install them (Debian, Ubuntu) and run npm test again:",
    `  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${pkgs}`,
    "As root, npm test installs them itself. GPUFLEET_TEST_ALLOW_MISSING=1 runs without them and",
    "counts the tests that need them as skipped.",
  ].join("\n");
}

export type Mode = "all" | "unit" | "setup-only";

export function parseMode(args: string[]): Mode {
  if (args.length === 0) return "all";
  if (args.length === 1 && args[0] === "unit") return "unit";
  if (args.length === 1 && args[0] === "--setup-only") return "setup-only";
  throw new Error(
    `npm test: unknown arguments "${args.join(" ")}". Use \`npm test\` (everything), ` +
      "`npm test -- unit` (without the browser suite) or `npm test -- --setup-only` (install " +
      "what is missing, start the throwaway PostgreSQL, print its URL and wait for Ctrl-C).",
  );
}

/** The URL with its password replaced, for logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(not a URL)";
  }
}
