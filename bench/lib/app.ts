// The production Next app (built once) on loopback, with its own SQLite store and collector.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { migrate } from "../../lib/migrate.ts";
import { needsBuild } from "../../scripts/lib/build-check.ts";
import { freePort, start, waitHttp, type Proc } from "./procs.ts";

const NEXT = "node_modules/next/dist/bin/next";

/** Builds the app when its sources changed since the last build; returns seconds spent. */
export function ensureBuilt(): number {
  if (!needsBuild()) return 0;
  console.error("bench: building the app (next build)…");
  const started = Date.now();
  const r = spawnSync(process.execPath, [NEXT, "build"], {
    stdio: ["ignore", 2, 2], // stdout is the markdown report
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) throw new Error(`next build failed (${r.status ?? r.signal})`);
  return (Date.now() - started) / 1000;
}

export interface App {
  proc: Proc;
  url: string;
  /** the bench admin's session cookie: every page and API call needs a signed-in user */
  cookie: string;
  /** the app's store, for benches that seed it or count what was written */
  dbUrl: string;
}

const BENCH_ADMIN = { email: "bench@gpufleet.test", password: "bench-admin-password" };

/** Creates the bench admin in the store (the first-run path `npm start` uses). */
function createBenchAdmin(dbUrl: string): void {
  const r = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "scripts/first-run.ts"],
    {
      stdio: ["ignore", "ignore", 2],
      env: {
        ...process.env,
        DATABASE_URL: dbUrl,
        GPUFLEET_ADMIN_EMAIL: BENCH_ADMIN.email,
        GPUFLEET_ADMIN_PASSWORD: BENCH_ADMIN.password,
      },
    },
  );
  if (r.status !== 0) throw new Error(`creating the bench admin failed (${r.status ?? r.signal})`);
}

/** Signs the bench admin in; the Cookie header to send. */
async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify(BENCH_ADMIN),
  });
  if (!res.ok) throw new Error(`bench sign-in failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .filter((c) => c.includes("session_token="))
    .join("; ");
  if (!cookie) throw new Error("bench sign-in set no session cookie");
  return cookie;
}

export type Mode = "embedded" | "prometheus";

export async function startApp(
  dir: string,
  opts: {
    mode: Mode;
    targetsFile?: string;
    prometheusUrl?: string;
    intervalS?: number;
    /** more variables for the app (e.g. GPUFLEET_TRUSTED_PROXIES for many client addresses) */
    env?: Record<string, string>;
    /** node flags for the app's process (e.g. --cpu-prof to see where its time goes) */
    nodeArgs?: string[];
    /** the store (migrated here); a new SQLite file in `dir` when omitted */
    dbUrl?: string;
  },
): Promise<App> {
  const dbUrl = opts.dbUrl ?? `file:${join(dir, `app-${opts.mode}-${Date.now()}.db`)}`;
  await migrate(dbUrl, { quiet: true });
  createBenchAdmin(dbUrl);
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    DATABASE_URL: dbUrl,
    PORT: String(port),
    GPUFLEET_DEMO: "0",
    GPUFLEET_COLLECT_INTERVAL_S: String(opts.intervalS ?? 15),
    GPUFLEET_SCRAPE_CONCURRENCY: "32",
    GPUFLEET_TARGETS_FILE: opts.mode === "embedded" ? opts.targetsFile : undefined,
    PROMETHEUS_URL: opts.mode === "prometheus" ? opts.prometheusUrl : undefined,
    ...opts.env,
  };
  const proc = start(
    `app (${opts.mode})`,
    process.execPath,
    [
      ...(opts.nodeArgs ?? []),
      "--import",
      "tsx",
      "scripts/serve.ts",
      "-H",
      "127.0.0.1",
      "-p",
      String(port),
    ],
    env,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitHttp(proc, `${url}/api/health`, 120_000);
  return { proc, url, cookie: await signIn(url), dbUrl };
}

interface FleetCounts {
  gpus: { known: number; reporting: number };
}

export interface FleetReady {
  seconds: number;
  /** whole GPUs known (the simulator drops the odd GPU, as real ones fall off the bus) */
  grid: number;
  reporting: number;
}

/**
 * Waits until the fleet API's grid has 99 % of `gpus` GPUs and 95 % of them report; gives up
 * waiting for reporting (not for the grid) after `reportingTimeoutMs` and says how many did.
 */
export async function waitFleet(
  app: App,
  gpus: number,
  timeoutMs = 360_000,
  reportingTimeoutMs = 90_000,
): Promise<FleetReady> {
  const started = Date.now();
  let gridAt: number | null = null;
  let last = "";
  let reporting = 0;
  let grid = 0;
  while (Date.now() - started < timeoutMs) {
    if (app.proc.child.exitCode !== null) throw new Error(`app exited:\n${app.proc.tail()}`);
    try {
      const res = await fetch(`${app.url}/api/fleet`, {
        headers: { cookie: app.cookie },
        signal: AbortSignal.timeout(120_000),
      });
      const body = (await res.json()) as FleetCounts;
      reporting = body.gpus.reporting;
      grid = body.gpus.known;
      last = `${grid} known, ${reporting} reporting`;
      if (grid >= gpus * 0.99) {
        gridAt ??= Date.now();
        if (reporting >= gpus * 0.95 || Date.now() - gridAt > reportingTimeoutMs)
          return { seconds: (Date.now() - started) / 1000, grid, reporting };
      }
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`fleet of ${gpus} GPUs not shown in ${timeoutMs} ms (${last})`);
}
