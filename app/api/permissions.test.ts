import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Role } from "@/lib/auth/roles.ts";
import type { TestSession } from "@/lib/testing/auth.ts";

// Every route handler, called as nobody, as each role and with each token scope. The table below
// says who may call what, written out independently of lib/auth/roles.ts; a route file or method
// that is not in it fails the test, so a new route cannot ship without a rule.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-perms-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

/** least role that may call it ("public": no sign-in); token: which token scopes may call it */
type Rule = { who: Role | "public"; token: "read" | "write" | "none" };
const viewer: Rule = { who: "viewer", token: "read" };
const operatorRead: Rule = { who: "operator", token: "read" };
const operatorAct: Rule = { who: "operator", token: "write" };
const financeRead: Rule = { who: "finance", token: "read" };
const financeWrite: Rule = { who: "finance", token: "write" };
const adminOnly: Rule = { who: "admin", token: "none" };
const adminRead: Rule = { who: "admin", token: "read" };
const open: Rule = { who: "public", token: "none" };

const EXPECTED: Record<string, Rule> = {
  "GET /api/health": open,
  "GET /api/openapi.json": open,
  "POST /api/auth/[...all]": open,
  "POST /api/setup": open,
  "GET /api/fleet": viewer,
  "GET /api/fleet/gpus": viewer,
  "GET /api/fleet/series": viewer,
  "GET /api/instances": viewer,
  "GET /api/instances/[id]": viewer,
  "GET /api/instances/[id]/series": viewer,
  "GET /api/alerts": operatorRead,
  "GET /api/alerts/[id]": operatorRead,
  "POST /api/alerts/[id]/acknowledge": operatorAct,
  "POST /api/alerts/[id]/snooze": operatorAct,
  "POST /api/alerts/[id]/resolve": operatorAct,
  "POST /api/alerts/evaluate": operatorAct,
  "POST /api/alerts/bulk": operatorAct,
  "GET /api/recommendations": operatorRead,
  "GET /api/recommendations/[id]": operatorRead,
  "POST /api/recommendations/[id]/accept": operatorAct,
  "POST /api/recommendations/[id]/dismiss": operatorAct,
  "POST /api/recommendations/[id]/snooze": operatorAct,
  "POST /api/recommendations/[id]/reopen": operatorAct,
  "GET /api/recommendations/[id]/release": operatorAct,
  "POST /api/recommendations/[id]/release": operatorAct,
  "GET /api/recommendations/[id]/resize": operatorAct,
  "POST /api/recommendations/[id]/resize": operatorAct,
  "POST /api/recommendations/recompute": operatorAct,
  "GET /api/policies": operatorRead,
  "POST /api/policies": adminOnly,
  "GET /api/policies/[id]": operatorRead,
  "PATCH /api/policies/[id]": adminOnly,
  "DELETE /api/policies/[id]": adminOnly,
  "GET /api/policies/actions": operatorRead,
  "GET /api/policies/scale-signals": operatorRead,
  "POST /api/policies/keep": open,
  "GET /api/policies/savings": operatorRead,
  "POST /api/policies/hosts/[id]/start": adminOnly,
  "GET /api/rules": operatorRead,
  "GET /api/rules/[id]": operatorRead,
  "POST /api/rules": adminOnly,
  "PATCH /api/rules/[id]": adminOnly,
  "DELETE /api/rules/[id]": adminOnly,
  "GET /api/costs": financeRead,
  "GET /api/costs/export.csv": financeRead,
  "GET /api/costs/focus": financeRead,
  "GET /api/billing/reconcile": financeRead,
  "GET /api/billing/reconcile.csv": financeRead,
  "POST /api/billing/import": financeWrite,
  "POST /api/billing/actuals": financeWrite,
  "GET /api/costs/holders": financeRead,
  "GET /api/costs/holders.csv": financeRead,
  "GET /api/pricing": financeRead,
  "POST /api/pricing": financeWrite,
  "PATCH /api/pricing/[id]": financeWrite,
  "POST /api/pricing/[id]/retire": financeWrite,
  "POST /api/pricing/reprice": financeWrite,
  "POST /api/pricing/import": financeWrite,
  "POST /api/pricing/spot-history": financeWrite,
  "GET /api/pricing/rates": financeRead,
  "POST /api/pricing/rates": financeWrite,
  "POST /api/pricing/rates/import": financeWrite,
  "POST /api/pricing/rates/[id]/retire": financeWrite,
  "GET /api/compare": operatorRead,
  "GET /api/work/unit-costs": financeRead,
  "GET /api/work/unit-costs.csv": financeRead,
  "GET /api/work/trials": financeRead,
  "POST /api/work/trials": operatorAct,
  "GET /api/benchmarks": operatorRead,
  "POST /api/benchmarks": operatorAct,
  "DELETE /api/benchmarks/[id]": operatorAct,
  "POST /api/benchmarks/import": operatorAct,
  "GET /api/budgets": financeRead,
  "GET /api/budgets/[id]": financeRead,
  "POST /api/budgets": financeWrite,
  "PATCH /api/budgets/[id]": financeWrite,
  "DELETE /api/budgets/[id]": financeWrite,
  "GET /api/channels": adminOnly,
  "GET /api/channels/[id]": adminOnly,
  "POST /api/channels": adminOnly,
  "PATCH /api/channels/[id]": adminOnly,
  "DELETE /api/channels/[id]": adminOnly,
  "POST /api/channels/[id]/test": adminOnly,
  "GET /api/users": adminOnly,
  "POST /api/users": adminOnly,
  "PATCH /api/users/[id]": adminOnly,
  "DELETE /api/users/[id]": adminOnly,
  "GET /api/tokens": adminOnly,
  "POST /api/tokens": adminOnly,
  "DELETE /api/tokens/[id]": adminOnly,
  "GET /api/settings": adminOnly,
  "GET /api/me/gpus": { who: "viewer", token: "none" },
  "GET /api/people": adminOnly,
  "POST /api/people": adminOnly,
  "DELETE /api/people/[id]": adminOnly,
  "POST /api/people/import": adminOnly,
  "PATCH /api/settings": adminOnly,
  "GET /api/audit": adminOnly,
  "GET /api/metrics": adminRead,
};

const ROLE_ORDER: Role[] = ["viewer", "operator", "finance", "admin"];
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Handler = (req: Request, ctx: unknown) => Promise<Response>;

function routeFiles(dir = "app/api"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return routeFiles(p);
    return d.name === "route.ts" ? [p] : [];
  });
}

type Route = { key: string; method: string; path: string; handler: Handler };
let routes: Route[] = [];
const sessions = {} as Record<Role, TestSession>;
let tokens: { read: string; write: string; revoked: string };
let disconnect: () => Promise<void> = async () => {};

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  const { sessionFor } = await import("@/lib/testing/auth.ts");
  for (const role of ROLE_ORDER) sessions[role] = await sessionFor(role);
  const { createApiToken, revokeApiToken } = await import("@/lib/auth/tokens.ts");
  const read = await createApiToken({ name: "r", scope: "read", createdBy: "test" });
  const write = await createApiToken({ name: "w", scope: "write", createdBy: "test" });
  const revoked = await createApiToken({ name: "x", scope: "write", createdBy: "test" });
  await revokeApiToken(revoked.view.id);
  tokens = { read: read.token, write: write.token, revoked: revoked.token };
  for (const f of routeFiles()) {
    const path = "/" + relative("app", f).replace(/\/route\.ts$/, "");
    const mod = (await import(/* @vite-ignore */ `/${f}`)) as Record<string, unknown>;
    for (const method of METHODS) {
      const handler = mod[method];
      if (typeof handler === "function") {
        routes.push({ key: `${method} ${path}`, method, path, handler: handler as Handler });
      }
    }
  }
  routes = routes.sort((a, b) => a.key.localeCompare(b.key));
  const { db } = await import("@/lib/db.ts");
  disconnect = () => db.$disconnect();
}, 60_000);
afterAll(async () => disconnect());

function requestFor(r: Route, headers: Record<string, string>): [Request, unknown] {
  const url = `http://127.0.0.1:3000${r.path.replace("[id]", "missing-id").replace("[...all]", "get-session")}`;
  const init: RequestInit = {
    method: r.method,
    headers: { "content-type": "application/json", ...headers },
  };
  if (r.method !== "GET") init.body = "{}";
  const ctx = { params: Promise.resolve({ id: "missing-id", all: ["get-session"] }) };
  return [new Request(url, init), ctx];
}

async function status(r: Route, headers: Record<string, string>): Promise<number> {
  const [req, ctx] = requestFor(r, headers);
  const spy = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    return (await r.handler(req, ctx)).status;
  } finally {
    spy.mockRestore();
  }
}

const asRole = (role: Role) => ({ cookie: sessions[role].cookie, origin: sessions[role].origin });

describe("route permissions", () => {
  it("every route handler and method has a rule", () => {
    expect(routes.length).toBeGreaterThan(40);
    const missing = routes.map((r) => r.key).filter((k) => !(k in EXPECTED));
    expect(missing, "routes without a rule in EXPECTED").toEqual([]);
    const stale = Object.keys(EXPECTED).filter((k) => !routes.some((r) => r.key === k));
    expect(stale, "rules for routes that no longer exist").toEqual([]);
  });

  it("without a session or token: 401, except the public routes", async () => {
    for (const r of routes) {
      const rule = EXPECTED[r.key];
      if (!rule || rule.who === "public") continue;
      expect(await status(r, {}), r.key).toBe(401);
    }
  });

  it("each role gets 403 exactly where the table says", async () => {
    const wrong: string[] = [];
    for (const r of routes) {
      const rule = EXPECTED[r.key];
      if (!rule || rule.who === "public") continue;
      for (const role of ROLE_ORDER) {
        const allowed = ROLE_ORDER.indexOf(role) >= ROLE_ORDER.indexOf(rule.who);
        const s = await status(r, asRole(role));
        if (allowed ? s === 401 || s === 403 : s !== 403) wrong.push(`${role} ${r.key} → ${s}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("token scopes: read tokens only read, write tokens also change, neither administers", async () => {
    const wrong: string[] = [];
    for (const r of routes) {
      const rule = EXPECTED[r.key];
      if (!rule || rule.who === "public") continue;
      for (const scope of ["read", "write"] as const) {
        const allowed = rule.token === "read" || (rule.token === "write" && scope === "write");
        const s = await status(r, { authorization: `Bearer ${tokens[scope]}` });
        if (allowed ? s === 401 || s === 403 : s !== 403)
          wrong.push(`${scope} token ${r.key} → ${s}`);
      }
      expect(await status(r, { authorization: `Bearer ${tokens.revoked}` }), r.key).toBe(401);
      expect(await status(r, { authorization: "Bearer gft_not-a-token" }), r.key).toBe(401);
    }
    expect(wrong).toEqual([]);
  });

  it("a viewer cannot reach the costs API, its CSV export or budgets", async () => {
    for (const key of ["GET /api/costs", "GET /api/costs/export.csv", "GET /api/budgets"]) {
      const r = routes.find((x) => x.key === key);
      if (!r) throw new Error(`no route ${key}`);
      const [req, ctx] = requestFor(r, asRole("viewer"));
      const res = await r.handler(req, ctx);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: string }).error).toContain("viewer role");
    }
  });
});

describe("cross-site requests", () => {
  const find = (key: string) => {
    const r = routes.find((x) => x.key === key);
    if (!r) throw new Error(`no route ${key}`);
    return r;
  };

  it("refuses a cookie-authenticated change from another origin, or with no origin at all", async () => {
    const r = find("POST /api/alerts/evaluate");
    const cookie = sessions.admin.cookie;
    expect(await status(r, { cookie, origin: "https://evil.example" })).toBe(403);
    expect(await status(r, { cookie })).toBe(403);
    expect(
      await status(r, { cookie, origin: sessions.admin.origin, "sec-fetch-site": "cross-site" }),
    ).toBe(403);
    expect(await status(r, { cookie, "sec-fetch-site": "same-origin" })).toBe(200);
    expect(await status(r, { cookie, origin: sessions.admin.origin })).toBe(200);
    // reads are not refused: a cross-site page cannot read the answer anyway
    expect(await status(find("GET /api/alerts"), { cookie, origin: "https://evil.example" })).toBe(
      200,
    );
  });

  it("lets an API token change things without an Origin (no ambient credentials)", async () => {
    expect(
      await status(find("POST /api/alerts/evaluate"), { authorization: `Bearer ${tokens.write}` }),
    ).toBe(200);
  });
});
