// `npm run bench:load [-- --clients=200 --seconds=60 | --quick]`: the production app on 127.0.0.1
// with the simulated demo fleet (its collector running), users of every role created through the
// admin API, then N concurrent clients on a seeded mix of reads, writes (acknowledge, snooze,
// budget create / update) and sign-ins. Afterwards the store is checked against every successful
// write answer (lost writes), and the section is printed and kept in bench/README.md.
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
  type Call,
  type Role,
  type Shared,
} from "./lib/load-clients.ts";
import { stop } from "./lib/procs.ts";
import { startSim, type Sim } from "./lib/sim.ts";
import { f0, percentile, table } from "./lib/stats.ts";

export const SECTION = "## Load: concurrent clients";
const { values } = parseArgs({
  options: {
    clients: { type: "string" },
    seconds: { type: "string" },
    quick: { type: "boolean", default: false },
    out: { type: "string", default: "bench/README.md" },
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
const ROLES: Role[] = ["operator", "operator", "finance", "viewer", "operator", "finance", "admin"];
const USERS = 21;
const ALERTS = 300;
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

const micros = (amount: string) => {
  const [whole = "0", frac = ""] = amount.split(".");
  return BigInt(whole) * 1_000_000n + BigInt((frac + "000000").slice(0, 6));
};

async function checkStore(dbUrl: string, s: Shared) {
  const db = createDb(dbUrl);
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
  await db.$disconnect();
  return [
    ["alerts acknowledged", w.acknowledged.size, acked],
    ["snoozes (one event each)", w.snoozeNotes.length, snoozes],
    ["budgets created", w.budgetsCreated.length, created],
    ["budgets at their last updated amount", w.budgetAmounts.size, current],
  ] as const;
}

function report(
  calls: Call[],
  checks: Awaited<ReturnType<typeof checkStore>>,
  setupS: number,
  load: number,
) {
  const byEndpoint = new Map<string, Call[]>();
  for (const c of calls) byEndpoint.set(c.endpoint, [...(byEndpoint.get(c.endpoint) ?? []), c]);
  const statuses = (cs: Call[]) => {
    const n = new Map<number, number>();
    for (const c of cs) n.set(c.status, (n.get(c.status) ?? 0) + 1);
    return [...n]
      .sort(([a], [b]) => a - b)
      .map(([st, k]) => `${st === 0 ? "no answer" : st}: ${k}`)
      .join(", ");
  };
  const rows = [...byEndpoint]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([e, cs]) => {
      const ms = cs.map((c) => c.ms);
      return [
        e,
        cs.length,
        f0(percentile(ms, 50)),
        f0(percentile(ms, 95)),
        f0(percentile(ms, 99)),
        statuses(cs),
      ];
    });
  const all = calls.map((c) => c.ms);
  const fivexx = calls.filter((c) => c.status >= 500).length;
  const none = calls.filter((c) => c.status === 0).length;
  const lost = checks.reduce((n, [, said, stored]) => n + Math.max(0, said - stored), 0);
  return {
    fivexx,
    lost,
    lines: [
      `Written by \`npm run bench:load${values.quick ? " -- --quick" : ""}\` on ` +
        `${new Date().toISOString().slice(0, 16)}Z: ${clients} concurrent clients for ${seconds} s ` +
        `(${USERS} users: operators, finance, viewers, admins; each client its own address), the ` +
        `app on 127.0.0.1 with a 24-host simulated fleet and its collector running; setup ${f0(setupS)} s. ` +
        `The load generator shares the ${cpus().length} cores with the app; the 1-minute load ` +
        `average was ${load.toFixed(1)} when the clients started (other work on the machine).`,
      "",
      `**${calls.length} requests, ${f0(calls.length / seconds)}/s; p50 ${f0(percentile(all, 50))} ms, ` +
        `p95 ${f0(percentile(all, 95))} ms, p99 ${f0(percentile(all, 99))} ms; 5xx: ${fivexx}; ` +
        `no answer: ${none}; lost writes: ${lost}.**`,
      "",
      ...table(["endpoint", "requests", "p50 ms", "p95 ms", "p99 ms", "statuses"], rows),
      "",
      "Writes: what the answers said succeeded, and what the store holds afterwards.",
      "",
      ...table(
        ["write", "answered 2xx", "in the store"],
        checks.map(([k, a, b]) => [k, a, b]),
      ),
    ],
  };
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
let app: App | undefined;
try {
  ensureBuilt();
  const t0 = Date.now();
  sim = await startSim(24, 8, dir);
  app = await startApp(dir, {
    mode: "embedded",
    targetsFile: sim.targetsFile,
    env: { GPUFLEET_TRUSTED_PROXIES: "127.0.0.1" },
  });
  const alertIds = await seedAlerts(app.dbUrl);
  const users = await makeUsers(app);
  const shared: Shared = {
    url: app.url,
    alertIds,
    deadline: 0,
    calls: [],
    written: {
      acknowledged: new Set(),
      snoozeNotes: [],
      budgetsCreated: [],
      budgetAmounts: new Map(),
    },
  };
  const setupS = (Date.now() - t0) / 1000;
  console.error(`bench:load: ${clients} clients for ${seconds} s…`);
  const load = loadavg()[0] ?? Number.NaN;
  shared.deadline = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, (_, i) =>
      runClient(i, users[i % users.length] as BenchUser, shared),
    ),
  );
  const checks = await checkStore(app.dbUrl, shared);
  const r = report(shared.calls, checks, setupS, load);
  console.log([SECTION, "", ...r.lines].join("\n"));
  await keepSection(values.out, r.lines);
  console.error(`bench:load: wrote ${values.out}`);
  if (r.fivexx > 0)
    console.error(`bench:load: ${r.fivexx} answers were 5xx; app log tail:\n${app.proc.tail()}`);
} finally {
  await stop(app?.proc);
  await stop(sim?.proc);
}
process.exit(0);
