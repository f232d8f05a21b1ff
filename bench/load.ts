// `npm run bench:load [-- --clients=200 --seconds=60 --stores=sqlite,postgres | --quick]`: for each
// store (SQLite, then a throwaway PostgreSQL), the production app on 127.0.0.1 with the simulated
// fleet (its collector running) and users of every role created through the admin API; N
// concurrent clients on the fleet API alone (the read-only baseline), then N on a seeded mix of
// reads, writes (acknowledge, snooze, budget create / update) and sign-ins. Afterwards the store is
// checked against every successful write answer (lost writes); the goals (issue 27) and figures
// are printed and kept in bench/README.md. `--profile=DIR` writes the app's CPU profiles there.
import { mkdtempSync, readFileSync, existsSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { format } from "prettier";
import { createDb } from "../lib/db.ts";
import { ensureBuilt, startApp, type App } from "./lib/app.ts";
import {
  runClient,
  sessionCookie,
  type BenchUser,
  type Load,
  type Role,
  type Shared,
} from "./lib/load-clients.ts";
import {
  checkStore,
  endpointRows,
  figures,
  goals,
  storeLines,
  summaryRows,
  verdict,
  type Phase,
  type StoreResult,
} from "./lib/load-report.ts";
import { postgresMissing, startStore, type StoreKind } from "./lib/load-store.ts";
import { groupCpuSeconds, stop } from "./lib/procs.ts";
import { startSim, type Sim } from "./lib/sim.ts";
import { f0, table } from "./lib/stats.ts";

export const SECTION = "## Load: concurrent clients";
const { values } = parseArgs({
  options: {
    clients: { type: "string" },
    seconds: { type: "string" },
    quick: { type: "boolean", default: false },
    out: { type: "string", default: "bench/README.md" },
    /** which stores, in order (default both) */
    stores: { type: "string", default: "sqlite,postgres" },
    /** a folder for the app's CPU profiles (node --cpu-prof), one subfolder per store */
    profile: { type: "string" },
  },
});

function positive(name: string, v: string | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`bench:load: --${name}=${v} is not a positive whole number`);
    process.exit(2);
  }
  return n;
}
const clients = positive("clients", values.clients, values.quick ? 50 : 200);
const seconds = positive("seconds", values.seconds, values.quick ? 15 : 60);
const isStore = (k: string): k is StoreKind => k === "sqlite" || k === "postgres";
const asked = values.stores.split(",").map((k) => k.trim());
if (!asked.every(isStore)) {
  console.error(`bench:load: --stores=${values.stores}: each must be sqlite or postgres`);
  process.exit(2);
}
const stores = asked.filter(isStore);
const ROLES: Role[] = ["operator", "operator", "finance", "viewer", "operator", "finance", "admin"];
const USERS = 21;
const ALERTS = 300;
const IDLE_S = 15;
const PASSWORD = "bench-load-password";

async function post(app: App, path: string, body: unknown, ip: string): Promise<Response> {
  return fetch(`${app.url}${path}`, {
    method: "POST",
    headers: {
      cookie: app.cookie,
      origin: app.url,
      "content-type": "application/json",
      "x-forwarded-for": ip,
    },
    body: JSON.stringify(body),
  });
}

async function makeUsers(app: App): Promise<BenchUser[]> {
  const users: BenchUser[] = [];
  for (let i = 0; i < USERS; i++) {
    const role = ROLES[i % ROLES.length] ?? "viewer";
    const email = `load-${i}@gpufleet.test`;
    const made = await post(app, "/api/users", { email, password: PASSWORD, role }, "10.255.0.1");
    if (made.status !== 201)
      throw new Error(`creating ${email}: ${made.status} ${await made.text()}`);
    const res = await post(
      app,
      "/api/auth/sign-in/email",
      { email, password: PASSWORD },
      `10.255.1.${i}`,
    );
    const cookie = res.ok ? sessionCookie(res) : null;
    if (!cookie) throw new Error(`signing in ${email}: ${res.status} ${await res.text()}`);
    users.push({ email, password: PASSWORD, role, cookie });
  }
  return users;
}

/** Firing alerts to act on, on a rule whose evaluation finds nothing (they resolve after 5 min). */
async function seedAlerts(dbUrl: string): Promise<string[]> {
  const db = createDb(dbUrl);
  const rule = await db.alertRule.create({ data: { name: "Bench (load)", kind: "ecc" } });
  const now = new Date();
  await db.alert.createMany({
    data: Array.from({ length: ALERTS }, (_, i) => ({
      ruleId: rule.id,
      fingerprint: `bench-load-${i}`,
      openKey: `bench-load-${i}`,
      kind: "ecc",
      summary: `bench alert ${i}`,
      startsAt: now,
    })),
  });
  const ids = (await db.alert.findMany({ where: { ruleId: rule.id }, select: { id: true } })).map(
    (a) => a.id,
  );
  await db.$disconnect();
  return ids;
}

/** `clients` clients doing `load` for `seconds`; what they were answered. */
async function phase(
  app: App,
  users: BenchUser[],
  alertIds: string[],
  load: Load,
): Promise<{ phase: Phase; shared: Shared }> {
  const shared: Shared = {
    url: app.url,
    alertIds,
    deadline: Date.now() + seconds * 1000,
    calls: [],
    written: {
      acknowledged: new Set(),
      snoozeNotes: [],
      budgetsCreated: [],
      budgetAmounts: new Map(),
    },
  };
  console.error(`bench:load: ${clients} clients, ${load}, for ${seconds} s…`);
  const before = loadavg()[0] ?? Number.NaN;
  const cpu0 = groupCpuSeconds(app.proc.pid);
  await Promise.all(
    Array.from({ length: clients }, (_, i) =>
      runClient(i, users[i % users.length] as BenchUser, shared, load),
    ),
  );
  const after = loadavg()[0] ?? Number.NaN;
  const appCpuS = groupCpuSeconds(app.proc.pid) - cpu0;
  return { phase: { calls: shared.calls, seconds, load: [before, after], appCpuS }, shared };
}

/** The app on a fresh store of `kind`: the read-only phase, then the mixed one, then the check. */
async function runStore(kind: StoreKind, dir: string, sim: Sim): Promise<StoreResult> {
  const t0 = Date.now();
  const store = await startStore(kind, dir);
  let app: App | undefined;
  try {
    app = await startApp(dir, {
      mode: "embedded",
      targetsFile: sim.targetsFile,
      dbUrl: store.url,
      // the SQLite store in WAL mode (lib/db-sqlite.ts), which the figures in bench/README.md measure
      env: { GPUFLEET_TRUSTED_PROXIES: "127.0.0.1", GPUFLEET_SQLITE_WAL: "1" },
      nodeArgs: values.profile
        ? ["--cpu-prof", `--cpu-prof-dir=${join(values.profile, kind)}`]
        : [],
    });
    const alertIds = await seedAlerts(app.dbUrl);
    const users = await makeUsers(app);
    console.error(`bench:load: ${kind} ready in ${f0((Date.now() - t0) / 1000)} s`);
    // the collector and its jobs alone, over one collection interval (15 s): what competes
    // with the requests in the same process whatever the load
    const idle0 = groupCpuSeconds(app.proc.pid);
    await new Promise((r) => setTimeout(r, IDLE_S * 1000));
    const idleCpuShare = (groupCpuSeconds(app.proc.pid) - idle0) / IDLE_S;
    const readOnly = await phase(app, users, alertIds, "read-only");
    const mixed = await phase(app, users, alertIds, "mixed");
    const checks = await checkStore(app.dbUrl, mixed.shared);
    if (mixed.phase.calls.some((c) => c.status >= 500))
      console.error(`bench:load: ${kind}: 5xx answers; app log tail:\n${app.proc.tail()}`);
    return {
      store: kind === "sqlite" ? "SQLite" : "PostgreSQL",
      label: store.label,
      readOnly: figures(readOnly.phase),
      mixed: figures(mixed.phase),
      endpoints: endpointRows(mixed.phase.calls),
      checks,
      idleCpuShare,
      clients,
    };
  } finally {
    await stop(app?.proc);
    store.stop();
  }
}

function report(results: StoreResult[], skipped: string[]): string[] {
  return [
    `Written by \`npm run bench:load${values.quick ? " -- --quick" : ""}\` on ` +
      `${new Date().toISOString().slice(0, 16)}Z: for each store, the app on 127.0.0.1 with a ` +
      `24-host simulated fleet (192 GPUs) and its collector running, ${USERS} users (operators, ` +
      `finance, viewers, admins), then ${clients} concurrent clients (each its own address) for ` +
      `${seconds} s on the fleet API only (read-only), then ${seconds} s of the mixed load: ` +
      "reads of the fleet, instances, costs, alerts and budgets; acknowledgements, snoozes, " +
      "budget creates and updates, sign-ins. The load generator shares the " +
      `${cpus().length} cores with the app and the store; the 1-minute load average (other ` +
      "work on the machine included) is given for each phase, start → end.",
    ...skipped.map((s) => `\n${s}`),
    "",
    "| goal | measured | met |",
    "|---|---:|:---:|",
    ...results.flatMap(goals).map((g) => `| ${g.goal} | ${g.figure} | ${verdict(g)} |`),
    "",
    ...table(
      [
        "store",
        "load",
        "requests",
        "req/s",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "5xx",
        "no answer",
      ].concat(["app CPU ms/request", "load average"]),
      summaryRows(results),
    ),
    ...results.flatMap((r) => ["", ...storeLines(r)]),
  ];
}

async function keepSection(file: string, lines: string[]) {
  const section = [SECTION, "", ...lines, ""].join("\n");
  const text = existsSync(file) ? readFileSync(file, "utf8") : "# gpufleet benchmarks\n";
  const parts = text.split(/\n(?=## )/).filter((p) => !p.startsWith(SECTION));
  const md = await format([...parts.map((p) => p.trimEnd() + "\n"), section].join("\n"), {
    parser: "markdown",
    printWidth: 100,
  });
  writeFileSync(file, md);
}

const dir = mkdtempSync(join(tmpdir(), "gpufleet-bench-load-"));
let sim: Sim | undefined;
try {
  ensureBuilt();
  sim = await startSim(24, 8, dir);
  const results: StoreResult[] = [];
  const skipped: string[] = [];
  for (const kind of stores) {
    const missing = kind === "postgres" ? postgresMissing() : null;
    if (missing) {
      skipped.push(`PostgreSQL not run: ${missing}.`);
      console.error(`bench:load: PostgreSQL not run: ${missing}`);
      continue;
    }
    results.push(await runStore(kind, dir, sim));
  }
  const lines = report(results, skipped);
  console.log([SECTION, "", ...lines].join("\n"));
  await keepSection(values.out, lines);
  console.error(`bench:load: wrote ${values.out}`);
} finally {
  await stop(sim?.proc);
}
process.exit(0);
