// `npm start`: generate the Prisma clients when missing or stale, migrate the store, build the app when its sources changed, start the simulated demo
// fleet (unless GPUFLEET_DEMO=0), seed it on first run (later runs match it to the exporter's
// address and host count), and serve Next on 127.0.0.1. Ctrl-C stops every process this started
// (each runs in its own process group).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { env as appEnv } from "../lib/env.ts";
import { startBanner } from "./lib/banner.ts";
import { needsBuild } from "./lib/build-check.ts";
import { PRISMA_CLIENTS, staleClients } from "./lib/prisma-clients.ts";
import { freePort, waitForHttp, waitForPort } from "./lib/wait.ts";

// every variable is read and validated by lib/env.ts: a bad value stops here, before anything starts
const settings = appEnv;
const port = settings.PORT;
const demo = settings.GPUFLEET_DEMO === "1";
const dev = settings.GPUFLEET_DEV === "1";
const exporterPort = settings.GPUFLEET_EXPORTER_PORT;
const demoHosts = settings.GPUFLEET_DEMO_HOSTS;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_URL: settings.DATABASE_URL,
  PORT: String(port),
  NEXT_TELEMETRY_DISABLED: "1",
  CHECKPOINT_DISABLE: "1",
};
const children: ChildProcess[] = [];

function step(
  label: string,
  cmd: string,
  args: string[],
  extraEnv: Record<string, string> = {},
): void {
  console.log(`gpufleet: ${label}`);
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...env, ...extraEnv } });
  if (r.status !== 0) {
    console.error(`gpufleet: ${label} failed (exit ${r.status ?? r.signal}).`);
    process.exit(1);
  }
}

function background(
  label: string,
  cmd: string,
  args: string[],
  extraEnv: Record<string, string> = {},
): ChildProcess {
  const guard = `--import=${pathToFileURL(resolve("scripts/lib/exit-with-parent.mjs")).href}`;
  const childEnv = {
    ...env,
    ...extraEnv,
    GPUFLEET_PARENT_PID: String(process.pid),
    NODE_OPTIONS: [env.NODE_OPTIONS, guard].filter(Boolean).join(" "),
  };
  const child = spawn(cmd, args, { stdio: "inherit", env: childEnv, detached: true });
  children.push(child);
  child.on("exit", (code, signal) => {
    if (!stopping) {
      console.error(`gpufleet: ${label} exited (${code ?? signal}); stopping.`);
      stop(1);
    }
  });
  return child;
}

let stopping = false;
function stop(code = 0): void {
  if (stopping) return;
  stopping = true;
  for (const c of children) {
    if (c.pid !== undefined && c.exitCode === null) {
      try {
        process.kill(-c.pid, "SIGTERM");
      } catch {
        /* already gone */
      }
    }
  }
  setTimeout(() => {
    for (const c of children) {
      if (c.pid !== undefined && c.exitCode === null) {
        try {
          process.kill(-c.pid, "SIGKILL");
        } catch {
          /* already gone */
        }
      }
    }
    process.exit(code);
    // the server waits up to GPUFLEET_STOP_TIMEOUT_MS for sends in flight (and 5 s more to close)
  }, settings.GPUFLEET_STOP_TIMEOUT_MS + 6000).unref();
  Promise.all(
    children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once("exit", r)))),
  ).then(() => process.exit(code));
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

mkdirSync("data", { recursive: true });
// GPUFLEET_FRESH_STORE=1 (the end-to-end tests) starts from an empty SQLite store, so the demo is
// seeded now; a store left from an earlier run holds a demo history that ended hours ago
if (settings.GPUFLEET_FRESH_STORE === "1") {
  const url = env.DATABASE_URL ?? "";
  if (!url.startsWith("file:")) {
    console.error("gpufleet: GPUFLEET_FRESH_STORE=1 only empties a SQLite store (file:…).");
    process.exit(1);
  }
  const file = url.slice("file:".length);
  console.log(`gpufleet: starting from an empty store (${file})`);
  for (const suffix of ["", "-journal", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
}
// both clients or neither: the build needs the PostgreSQL one too, current with its schema
const stale = staleClients();
if (stale.length > 0) {
  console.log(`gpufleet: ${stale.join("; ")}`);
  for (const c of PRISMA_CLIENTS) {
    step(`generating the ${c.name} Prisma client`, "npx", ["prisma", "generate"], {
      DATABASE_URL: c.databaseUrl,
    });
  }
}
step("applying database migrations", process.execPath, ["--import", "tsx", "scripts/migrate.ts"]);
if (!dev && needsBuild())
  step("building the app (first run or sources changed)", "npx", ["next", "build"]);

let mailPort: number | undefined;
if (demo) {
  const listen = `127.0.0.1:${exporterPort}`;
  console.log(
    `gpufleet: starting the simulated demo fleet (${demoHosts} hosts) on http://${listen}`,
  );
  background("simulated exporter", process.execPath, [
    "--import",
    "tsx",
    "exporter/main.ts",
    "--simulate",
    "--simulate.seed=42",
    `--simulate.hosts=${demoHosts}`,
    `--web.listen-address=${listen}`,
  ]);
  await waitForHttp(`http://${listen}/healthz`, 60_000);
  // the demo's email channel delivers here (idle alerts, to whoever holds the GPU): a catcher on a
  // port chosen now, saving each message under data/demo-mail/ (scripts/demo-mailbox.ts)
  mailPort = await freePort();
  background("demo mailbox", process.execPath, [
    "--import",
    "tsx",
    "scripts/demo-mailbox.ts",
    `--port=${mailPort}`,
  ]);
  await waitForPort(mailPort, 30_000);
  step("seeding the demo fleet, or matching it to the exporter", process.execPath, [
    "--conditions=react-server",
    "--import",
    "tsx",
    "scripts/seed-demo.ts",
    `--exporter=http://${listen}`,
    `--hosts=${demoHosts}`,
    `--mailbox-port=${mailPort}`,
  ]);
}

// who can sign in: printed again in the banner once the app answers
console.log("gpufleet: checking who can sign in");
const firstRun = spawnSync(
  process.execPath,
  [
    "--conditions=react-server",
    "--import",
    "tsx",
    "scripts/first-run.ts",
    `--url=http://127.0.0.1:${port}`,
    ...(demo ? ["--demo"] : []),
  ],
  { stdio: ["ignore", "pipe", "inherit"], env, encoding: "utf8" },
);
if (firstRun.status !== 0) {
  console.error(
    `gpufleet: checking who can sign in failed (exit ${firstRun.status ?? firstRun.signal}).`,
  );
  process.exit(1);
}
const signInLines = firstRun.stdout.trimEnd();

// production: Next behind scripts/serve.ts, which starts requests fairly under load
if (dev) background("Next", "npx", ["next", "dev", "-H", "127.0.0.1", "-p", String(port)]);
else
  background("Next", process.execPath, [
    "--import",
    "tsx",
    "scripts/serve.ts",
    "-H",
    "127.0.0.1",
    "-p",
    String(port),
  ]);
await waitForHttp(`http://127.0.0.1:${port}/api/health`, 120_000);
console.log(
  startBanner(
    {
      port,
      demo,
      demoHosts,
      exporterPort,
      databaseUrl: env.DATABASE_URL ?? "",
      prometheusUrl: env.PROMETHEUS_URL,
      prometheusAuth: prometheusAuthText(env),
      targetsFile: env.GPUFLEET_TARGETS_FILE,
      mailboxPort: mailPort,
    },
    signInLines,
  ),
);

/** How the app authenticates to Prometheus, named without any secret. */
function prometheusAuthText(e: NodeJS.ProcessEnv): string | undefined {
  const parts = [
    e.PROMETHEUS_USERNAME ? `basic auth as ${e.PROMETHEUS_USERNAME}` : null,
    e.PROMETHEUS_BEARER_TOKEN_FILE ? "a bearer token" : null,
    e.PROMETHEUS_HEADERS ? "extra headers" : null,
    e.PROMETHEUS_CA_FILE ? `CA ${e.PROMETHEUS_CA_FILE}` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : undefined;
}
