// The clients of `npm run bench:load`: each signed in as one user of the store, looping over a
// seeded mix of reads and writes until the deadline, every answer recorded by endpoint and status.
// Writes carry names and notes unique per request, so the store can be checked for lost writes.

export type Role = "viewer" | "operator" | "finance" | "admin";

export interface BenchUser {
  email: string;
  password: string;
  role: Role;
  cookie: string;
}

export interface Call {
  endpoint: string;
  status: number; // 0: no answer (network error or timeout)
  ms: number;
}

/** Successful writes, as the answers said: compared with the store afterwards. */
export interface Written {
  acknowledged: Set<string>;
  snoozeNotes: string[];
  budgetsCreated: string[];
  /** budget id → the amount of the last successful update */
  budgetAmounts: Map<string, string>;
}

export interface Shared {
  url: string;
  alertIds: readonly string[];
  deadline: number;
  calls: Call[];
  written: Written;
}

/** mulberry32: a small seeded PRNG, so a run's mix is the same every time. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Op =
  | "fleet"
  | "instances"
  | "costs"
  | "alerts"
  | "budgets"
  | "acknowledge"
  | "snooze"
  | "budget create"
  | "budget update"
  | "sign-in";

/** What each role does, with weights: mostly reads, a steady share of writes, a few sign-ins. */
const MIX: Record<Role, Array<[Op, number]>> = {
  viewer: [
    ["fleet", 5],
    ["instances", 4],
    ["sign-in", 1],
  ],
  operator: [
    ["fleet", 3],
    ["instances", 2],
    ["alerts", 3],
    ["acknowledge", 2],
    ["snooze", 2],
    ["sign-in", 1],
  ],
  finance: [
    ["fleet", 2],
    ["costs", 3],
    ["budgets", 2],
    ["budget create", 1],
    ["budget update", 3],
    ["sign-in", 1],
  ],
  admin: [
    ["fleet", 2],
    ["instances", 1],
    ["costs", 1],
    ["alerts", 1],
    ["acknowledge", 1],
    ["snooze", 1],
    ["budget update", 1],
    ["sign-in", 1],
  ],
};

function pick(r: () => number, mix: Array<[Op, number]>): Op {
  const total = mix.reduce((n, [, w]) => n + w, 0);
  let x = r() * total;
  for (const [op, w] of mix) {
    x -= w;
    if (x < 0) return op;
  }
  return mix[0]?.[0] ?? "fleet";
}

/** The session cookie a sign-in answer sets, or null. */
export function sessionCookie(res: Response): string | null {
  const c = res.headers
    .getSetCookie()
    .map((s) => s.split(";")[0] ?? "")
    .filter((s) => s.includes("session_token="))
    .join("; ");
  return c === "" ? null : c;
}

/** What the clients do: the mix above, or only the fleet API (the read-only baseline). */
export type Load = "mixed" | "read-only";

/** One client: its own address (X-Forwarded-For, believed from 127.0.0.1) and user. */
export async function runClient(
  index: number,
  user: BenchUser,
  s: Shared,
  load: Load = "mixed",
): Promise<void> {
  const r = rng(index + 1);
  const ip = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
  let cookie = user.cookie;
  let seq = 0;
  let ownBudget: string | null = null;
  const call = async (endpoint: string, method: string, path: string, body?: unknown) => {
    const t0 = performance.now();
    let status = 0;
    let res: Response | null = null;
    try {
      res = await fetch(`${s.url}${path}`, {
        method,
        headers: {
          cookie,
          origin: s.url,
          "x-forwarded-for": ip,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
      status = res.status;
      const text = await res.text();
      s.calls.push({ endpoint, status, ms: performance.now() - t0 });
      return { res, text };
    } catch {
      s.calls.push({ endpoint, status, ms: performance.now() - t0 });
      return null;
    }
  };
  const alertId = () => s.alertIds[Math.floor(r() * s.alertIds.length)] ?? "";
  while (Date.now() < s.deadline) {
    const op = load === "read-only" ? "fleet" : pick(r, MIX[user.role]);
    const tag = `bench-${index}-${seq++}`;
    switch (op) {
      case "fleet":
        await call(op, "GET", "/api/fleet");
        break;
      case "instances":
        await call(op, "GET", "/api/instances?sort=hostname&dir=asc");
        break;
      case "costs":
        await call(op, "GET", "/api/costs");
        break;
      case "alerts":
        await call(op, "GET", "/api/alerts");
        break;
      case "budgets":
        await call(op, "GET", "/api/budgets");
        break;
      case "acknowledge": {
        const id = alertId();
        const a = await call(op, "POST", `/api/alerts/${id}/acknowledge`, { note: tag });
        if (a?.res.ok) s.written.acknowledged.add(id);
        break;
      }
      case "snooze": {
        const a = await call(op, "POST", `/api/alerts/${alertId()}/snooze`, {
          minutes: 60,
          note: tag,
        });
        if (a?.res.ok) s.written.snoozeNotes.push(tag);
        break;
      }
      case "budget create":
      case "budget update": {
        if (op === "budget create" || ownBudget === null) {
          // one budget per scope: each its own project
          const a = await call("budget create", "POST", "/api/budgets", {
            name: tag,
            scopeKind: "project",
            scopeValue: tag,
            amount: "1000",
          });
          if (a?.res.ok) {
            s.written.budgetsCreated.push(tag);
            ownBudget = (JSON.parse(a.text) as { id: string }).id;
            s.written.budgetAmounts.set(ownBudget, "1000");
          }
          break;
        }
        const amount = `${1000 + seq}.50`;
        const a = await call(op, "PATCH", `/api/budgets/${ownBudget}`, { amount });
        if (a?.res.ok) s.written.budgetAmounts.set(ownBudget, amount);
        break;
      }
      case "sign-in": {
        const a = await call(op, "POST", "/api/auth/sign-in/email", {
          email: user.email,
          password: user.password,
        });
        const next = a?.res.ok ? sessionCookie(a.res) : null;
        if (next) cookie = next;
        break;
      }
    }
  }
}
