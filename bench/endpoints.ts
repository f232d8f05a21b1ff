// `npm run bench:endpoints [-- --n=40 --only=costs,alerts --profile=DIR]`: the app's CPU per request
// for each endpoint of bench:load's mixed load, one request at a time on an otherwise idle app (the
// production build on SQLite in WAL mode, the 24-host simulated fleet and its collector running).
// The store holds 100 budgets (what a bench:load run leaves) and the alerts acted on. The
// collector's CPU at rest, measured over one collection interval first, is subtracted, so a
// figure is what one request of that endpoint costs the app's process. Prints a markdown table.
import { mkdtempSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createDb } from "../lib/db.ts";
import { ensureBuilt, startApp, type App } from "./lib/app.ts";
import { sessionCookie } from "./lib/load-clients.ts";
import { groupCpuSeconds, sleep, stop } from "./lib/procs.ts";
import { startSim, type Sim } from "./lib/sim.ts";
import { f1, median, table } from "./lib/stats.ts";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "40" },
    only: { type: "string" },
    /** a folder for the app's CPU profile (node --cpu-prof) */
    profile: { type: "string" },
  },
});
const N = Number(values.n);
if (!Number.isInteger(N) || N < 1) {
  console.error(`bench:endpoints: --n=${values.n} is not a positive whole number`);
  process.exit(2);
}
const PASSWORD = "bench-endpoints-password";
const IDLE_S = 15;
const BUDGETS = 100;

interface Ctx {
  app: App;
  cookie: string;
  email: string;
  alertIds: string[];
  budgetId: string;
}
type Call = (c: Ctx, i: number) => { method: string; path: string; body?: unknown; ip?: string };

/** The endpoints of the mixed load (bench/lib/load-clients.ts), each as that load calls it. */
const ENDPOINTS: Array<[string, Call]> = [
  ["fleet", () => ({ method: "GET", path: "/api/fleet" })],
  ["instances", () => ({ method: "GET", path: "/api/instances?sort=hostname&dir=asc" })],
  ["costs", () => ({ method: "GET", path: "/api/costs" })],
  ["alerts", () => ({ method: "GET", path: "/api/alerts" })],
  ["budgets", () => ({ method: "GET", path: "/api/budgets" })],
  [
    "acknowledge",
    (c, i) => ({
      method: "POST",
      path: `/api/alerts/${c.alertIds[i] ?? ""}/acknowledge`,
      body: { note: `ack-${i}` },
    }),
  ],
  [
    "snooze",
    (c, i) => ({
      method: "POST",
      path: `/api/alerts/${c.alertIds[N + 5 + i] ?? ""}/snooze`,
      body: { minutes: 60, note: `snooze-${i}` },
    }),
  ],
  [
    "budget create",
    (_c, i) => ({
      method: "POST",
      path: "/api/budgets",
      body: { name: `ep-${i}`, scopeKind: "project", scopeValue: `ep-${i}`, amount: "1000" },
    }),
  ],
  [
    "budget update",
    (c, i) => ({
      method: "PATCH",
      path: `/api/budgets/${c.budgetId}`,
      body: { amount: `${1000 + i}.50` },
    }),
  ],
  [
    "sign-in",
    (c, i) => ({
      method: "POST",
      path: "/api/auth/sign-in/email",
      body: { email: c.email, password: PASSWORD },
      ip: `10.254.${i >> 8}.${i & 255}`,
    }),
  ],
];

async function send(c: Ctx, call: ReturnType<Call>): Promise<Response> {
  const res = await fetch(`${c.app.url}${call.path}`, {
    method: call.method,
    headers: {
      cookie: c.cookie,
      origin: c.app.url,
      "x-forwarded-for": call.ip ?? "10.253.0.1",
      ...(call.body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
  });
  await res.arrayBuffer();
  return res;
}

async function setUp(app: App): Promise<Ctx> {
  const email = "endpoints-admin@gpufleet.test";
  const h = { cookie: app.cookie, origin: app.url, "content-type": "application/json" };
  const made = await fetch(`${app.url}/api/users`, {
    method: "POST",
    headers: h,
    body: JSON.stringify({ email, password: PASSWORD, role: "admin" }),
  });
  if (made.status !== 201) throw new Error(`creating ${email}: ${made.status}`);
  const signed = await fetch(`${app.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: h,
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const cookie = sessionCookie(signed);
  if (!cookie) throw new Error(`signing in ${email}: ${signed.status}`);
  const db = createDb(app.dbUrl);
  const rule = await db.alertRule.create({ data: { name: "Bench (endpoints)", kind: "ecc" } });
  const now = new Date();
  await db.alert.createMany({
    data: Array.from({ length: 2 * N + 20 }, (_, i) => ({
      ruleId: rule.id,
      fingerprint: `bench-ep-${i}`,
      openKey: `bench-ep-${i}`,
      kind: "ecc",
      summary: `bench alert ${i}`,
      startsAt: now,
    })),
  });
  // the budgets a bench:load run leaves (~100: each finance client creates its own)
  await db.budget.createMany({
    data: Array.from({ length: BUDGETS }, (_, i) => ({
      name: `seeded-${i}`,
      scopeKind: ["project", "team", "provider"][i % 3] ?? "project",
      scopeValue: `seeded-${i}`,
      amountMicros: 1_000_000_000n,
    })),
  });
  const alertIds = (
    await db.alert.findMany({ where: { ruleId: rule.id }, orderBy: { fingerprint: "asc" } })
  ).map((a) => a.id);
  await db.$disconnect();
  const ctx: Ctx = { app, cookie, email, alertIds, budgetId: "" };
  const b = await fetch(`${app.url}/api/budgets`, {
    method: "POST",
    headers: { ...h, cookie },
    body: JSON.stringify({
      name: "ep-own",
      scopeKind: "project",
      scopeValue: "ep-own",
      amount: "1000",
    }),
  });
  if (b.status !== 201) throw new Error(`creating the bench budget: ${b.status}`);
  ctx.budgetId = ((await b.json()) as { id: string }).id;
  return ctx;
}

const dir = mkdtempSync(join(tmpdir(), "gpufleet-bench-endpoints-"));
let sim: Sim | undefined;
let app: App | undefined;
try {
  ensureBuilt();
  sim = await startSim(24, 8, dir);
  app = await startApp(dir, {
    mode: "embedded",
    targetsFile: sim.targetsFile,
    env: { GPUFLEET_TRUSTED_PROXIES: "127.0.0.1", GPUFLEET_SQLITE_WAL: "1" },
    nodeArgs: values.profile ? ["--cpu-prof", `--cpu-prof-dir=${values.profile}`] : [],
  });
  const ctx = await setUp(app);
  const pid = app.proc.pid;
  const idle0 = groupCpuSeconds(pid);
  const t0 = performance.now();
  await sleep(IDLE_S * 1000);
  const idlePerMs = (groupCpuSeconds(pid) - idle0) / (performance.now() - t0);
  const only = values.only?.split(",").map((s) => s.trim());
  const rows: string[][] = [];
  for (const [name, call] of ENDPOINTS) {
    if (only && !only.includes(name)) continue;
    for (let i = 0; i < 3; i++) await send(ctx, call(ctx, N + 2 + i)); // warm-up (JIT, caches)
    const ms: number[] = [];
    const statuses = new Map<number, number>();
    const cpu0 = groupCpuSeconds(pid);
    const w0 = performance.now();
    for (let i = 0; i < N; i++) {
      const s = performance.now();
      const res = await send(ctx, call(ctx, i));
      ms.push(performance.now() - s);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
    const wall = performance.now() - w0;
    const cpuMs = ((groupCpuSeconds(pid) - cpu0 - idlePerMs * wall) * 1000) / N;
    const st = [...statuses].map(([k, v]) => `${k}: ${v}`).join(", ");
    rows.push([name, String(N), f1(cpuMs), f1(median(ms)), st]);
    console.error(`bench:endpoints: ${name}: ${f1(cpuMs)} ms CPU/request (${st})`);
  }
  console.log(
    [
      `App CPU per request, one request at a time (\`npm run bench:endpoints\`, ${new Date().toISOString().slice(0, 16)}Z, ` +
        `load average ${f1(loadavg()[0] ?? Number.NaN)}; the collector's ${f1(idlePerMs * 1e5)} % of a core at rest subtracted):`,
      "",
      ...table(["endpoint", "requests", "app CPU ms/request", "median ms", "statuses"], rows),
    ].join("\n"),
  );
} finally {
  await stop(app?.proc);
  await stop(sim?.proc);
}
process.exit(0);
