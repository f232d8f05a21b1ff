import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestSession } from "@/lib/testing/auth.ts";

// Every change made through the API leaves an audit entry naming who did what to which thing.
// Each mutating route below is called once, successfully, as an admin; a mutating route missing
// from the scenario list fails the test.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-audit-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

type Handler = (req: Request, ctx: unknown) => Promise<Response>;
const MUTATING = ["POST", "PUT", "PATCH", "DELETE"] as const;

function routeFiles(dir = "app/api"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return routeFiles(p);
    return d.name === "route.ts" ? [p] : [];
  });
}

const handlers = new Map<string, Handler>();
let admin: TestSession;
let receiver: Server;
let hookUrl = "";
let disconnect: () => Promise<void> = async () => {};
type Db = (typeof import("@/lib/db.ts"))["db"];
let db: Db;

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  const { sessionFor } = await import("@/lib/testing/auth.ts");
  admin = await sessionFor("admin", "auditor@test.local");
  for (const f of routeFiles()) {
    const path = "/" + relative("app", f).replace(/\/route\.ts$/, "");
    const mod = (await import(/* @vite-ignore */ `/${f}`)) as Record<string, unknown>;
    for (const m of MUTATING) {
      if (typeof mod[m] === "function") handlers.set(`${m} ${path}`, mod[m] as Handler);
    }
  }
  receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200).end("ok"));
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  db = (await import("@/lib/db.ts")).db;
  disconnect = () => db.$disconnect();
}, 60_000);
afterAll(async () => {
  receiver.close();
  await disconnect();
});

async function call(key: string, body: unknown, id?: string): Promise<Response> {
  const h = handlers.get(key);
  if (!h) throw new Error(`no handler ${key}`);
  const [method, path] = key.split(" ") as [string, string];
  const url = `http://127.0.0.1:3000${path.replace("[id]", id ?? "")}`;
  const req = new Request(url, {
    method,
    headers: { "content-type": "application/json", cookie: admin.cookie, origin: admin.origin },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return h(req, { params: Promise.resolve({ id }) });
}

/** Applies the Tencent price-list fixture, sent raw as the route takes it. */
async function importPrices(): Promise<Response> {
  const h = handlers.get("POST /api/pricing/import");
  if (!h) throw new Error("no handler POST /api/pricing/import");
  const file = "tencent-gpu-ap-guangzhou.csv";
  const req = new Request(
    `http://127.0.0.1:3000/api/pricing/import?provider=tencent&file=${file}&mode=apply`,
    {
      method: "POST",
      headers: { "content-type": "text/csv", cookie: admin.cookie, origin: admin.origin },
      body: readFileSync(join("lib/pricing/import/fixtures", file), "utf8"),
    },
  );
  return h(req, { params: Promise.resolve({}) });
}

/** Applies the AWS spot price history fixture, sent raw as the route takes it. */
async function importSpotNow(): Promise<Response> {
  const h = handlers.get("POST /api/pricing/spot-history");
  if (!h) throw new Error("no handler POST /api/pricing/spot-history");
  const file = "aws-spot-price-history-p4d.json";
  const req = new Request(
    `http://127.0.0.1:3000/api/pricing/spot-history?file=${file}&mode=apply`,
    {
      method: "POST",
      headers: { "content-type": "application/json", cookie: admin.cookie, origin: admin.origin },
      body: readFileSync(join("lib/pricing/import/fixtures", file), "utf8"),
    },
  );
  return h(req, { params: Promise.resolve({}) });
}

/** Applies the H.10 CNY/EUR rates fixture, sent raw as the route takes it. */
async function importRatesNow(): Promise<Response> {
  const h = handlers.get("POST /api/pricing/rates/import");
  if (!h) throw new Error("no handler POST /api/pricing/rates/import");
  const file = "h10-cny-eur-daily.csv";
  const req = new Request(
    `http://127.0.0.1:3000/api/pricing/rates/import?file=${file}&mode=apply`,
    {
      method: "POST",
      headers: { "content-type": "text/csv", cookie: admin.cookie, origin: admin.origin },
      body: readFileSync(join("lib/pricing/import/fixtures", file), "utf8"),
    },
  );
  return h(req, { params: Promise.resolve({}) });
}

/** Applies the small AWS FOCUS bill, sent raw as the route takes it. */
async function importBillNow(): Promise<Response> {
  const h = handlers.get("POST /api/billing/import");
  if (!h) throw new Error("no handler POST /api/billing/import");
  const req = new Request(
    "http://127.0.0.1:3000/api/billing/import?file=focus-aws.csv&mode=apply",
    {
      method: "POST",
      headers: { "content-type": "text/csv", cookie: admin.cookie, origin: admin.origin },
      body: readFileSync("lib/billing/fixtures/focus-aws.csv", "utf8"),
    },
  );
  return h(req, { params: Promise.resolve({}) });
}

const BENCHMARK = {
  provider: "aws",
  instanceType: "p5.48xlarge",
  workload: "w",
  unit: "tokens/s",
  value: 100,
  source: "test",
  sourceDate: "2025-01",
};

async function newestAudit() {
  return db.auditEvent.findFirstOrThrow({ orderBy: [{ at: "desc" }, { id: "desc" }] });
}

async function makeAlert(key: string) {
  const rule =
    (await db.alertRule.findFirst()) ??
    (await db.alertRule.create({ data: { name: "Idle", kind: "idle", enabled: false } }));
  return db.alert.create({
    data: {
      ruleId: rule.id,
      fingerprint: key,
      openKey: key,
      kind: "idle",
      summary: "s",
      startsAt: new Date(),
    },
  });
}

async function makeRecommendation(key: string) {
  const host = await db.host.create({ data: { hostname: `h-${key}` } });
  return db.recommendation.create({
    data: {
      kind: "idle_release",
      hostId: host.id,
      fingerprint: key,
      title: "t",
      details: "d",
      monthlySavingMicros: 1n,
    },
  });
}

const ids: Record<string, string> = {};

/** Previews the open month, then applies it with the previewed total. */
async function repriceNow(): Promise<Response> {
  const month = new Date().toISOString().slice(0, 7);
  const preview = await call("POST /api/pricing/reprice", { month });
  const { newTotalMicros } = (await preview.json()) as { newTotalMicros: string };
  return call("POST /api/pricing/reprice", {
    month,
    apply: true,
    expectedNewTotalMicros: newTotalMicros,
  });
}

/** Previews the open month's actuals (from its imported bills), then applies them. */
async function actualsNow(): Promise<Response> {
  const month = new Date().toISOString().slice(0, 7);
  const preview = await call("POST /api/billing/actuals", { month });
  const { newTotalMicros } = (await preview.json()) as { newTotalMicros: string };
  return call("POST /api/billing/actuals", {
    month,
    apply: true,
    expectedNewTotalMicros: newTotalMicros,
  });
}

/** Each mutating route: how to call it successfully, and the audit action it must leave. */
const SCENARIOS: Record<
  string,
  { action: string; run: () => Promise<Response>; target?: () => string }
> = {
  "POST /api/rules": {
    action: "rules.create",
    run: () => call("POST /api/rules", { name: "Idle 2", kind: "idle" }),
  },
  "PATCH /api/rules/[id]": {
    action: "rules.update",
    run: () => call("PATCH /api/rules/[id]", { name: "Idle two" }, ids.rule),
    target: () => ids.rule ?? "",
  },
  "DELETE /api/rules/[id]": {
    action: "rules.delete",
    run: () => call("DELETE /api/rules/[id]", undefined, ids.rule),
  },
  "POST /api/policies": {
    action: "policy.create",
    run: () => call("POST /api/policies", { name: "Idle 24h" }),
  },
  "PATCH /api/policies/[id]": {
    action: "policy.mode.active",
    run: () => call("PATCH /api/policies/[id]", { mode: "active" }, ids.policy),
  },
  "DELETE /api/policies/[id]": {
    action: "policy.delete",
    run: () => call("DELETE /api/policies/[id]", undefined, ids.policy),
  },
  "POST /api/budgets": {
    action: "budgets.create",
    run: () => call("POST /api/budgets", { name: "Fleet", amount: "1000" }),
  },
  "PATCH /api/budgets/[id]": {
    action: "budgets.update",
    run: () => call("PATCH /api/budgets/[id]", { amount: "2000" }, ids.budget),
  },
  "DELETE /api/budgets/[id]": {
    action: "budgets.delete",
    run: () => call("DELETE /api/budgets/[id]", undefined, ids.budget),
  },
  "POST /api/people": {
    action: "people.create",
    run: () => call("POST /api/people", { key: "alice", email: "alice@example.com" }),
  },
  "DELETE /api/people/[id]": {
    action: "people.delete",
    run: () => call("DELETE /api/people/[id]", undefined, ids.person),
  },
  "POST /api/people/import": {
    action: "people.import",
    run: () => {
      const h = handlers.get("POST /api/people/import");
      if (!h) throw new Error("no handler POST /api/people/import");
      const headers = { "content-type": "text/csv", cookie: admin.cookie, origin: admin.origin };
      const url = "http://127.0.0.1:3000/api/people/import";
      const body = "key,email\nbob,bob@example.com\n";
      return h(new Request(url, { method: "POST", headers, body }), {
        params: Promise.resolve({}),
      });
    },
  },
  "POST /api/channels": {
    action: "channels.create",
    run: () => call("POST /api/channels", { name: "Hook", kind: "webhook", url: hookUrl }),
  },
  "PATCH /api/channels/[id]": {
    action: "channels.update",
    run: () => call("PATCH /api/channels/[id]", { name: "Hook 2" }, ids.channel),
  },
  "POST /api/channels/[id]/test": {
    action: "channels.test",
    run: () => call("POST /api/channels/[id]/test", {}, ids.channel),
  },
  "DELETE /api/channels/[id]": {
    action: "channels.delete",
    run: () => call("DELETE /api/channels/[id]", undefined, ids.channel),
  },
  "POST /api/alerts/[id]/acknowledge": {
    action: "alerts.acknowledge",
    run: () => call("POST /api/alerts/[id]/acknowledge", { note: "on it" }, ids.alert),
  },
  "POST /api/alerts/[id]/snooze": {
    action: "alerts.snooze",
    run: () => call("POST /api/alerts/[id]/snooze", { minutes: 30 }, ids.alert),
  },
  "POST /api/alerts/[id]/resolve": {
    action: "alerts.resolve",
    run: () => call("POST /api/alerts/[id]/resolve", {}, ids.alert),
  },
  "POST /api/alerts/bulk": {
    action: "alerts.bulk.snooze",
    run: async () =>
      call("POST /api/alerts/bulk", {
        ids: [(await makeAlert("bulk1")).id],
        action: "snooze",
        minutes: 30,
      }),
  },
  "POST /api/alerts/evaluate": {
    action: "alerts.evaluate",
    run: () => call("POST /api/alerts/evaluate", {}),
  },
  "POST /api/recommendations/[id]/dismiss": {
    action: "recommendations.dismiss",
    run: () =>
      call("POST /api/recommendations/[id]/dismiss", { reason: "needed for tests" }, ids.rec),
  },
  "POST /api/recommendations/[id]/reopen": {
    action: "recommendations.reopen",
    run: () => call("POST /api/recommendations/[id]/reopen", {}, ids.rec),
  },
  "POST /api/recommendations/[id]/snooze": {
    action: "recommendations.snooze",
    run: () => call("POST /api/recommendations/[id]/snooze", { days: 7 }, ids.rec2),
  },
  "POST /api/recommendations/[id]/accept": {
    action: "recommendations.accept",
    run: () => call("POST /api/recommendations/[id]/accept", {}, ids.rec3),
  },
  "POST /api/recommendations/recompute": {
    action: "recommendations.recompute",
    run: () => call("POST /api/recommendations/recompute", {}),
  },
  "POST /api/users": {
    action: "users.create",
    run: () =>
      call("POST /api/users", {
        email: "new@test.local",
        password: "long-enough-pw",
        role: "viewer",
      }),
  },
  "PATCH /api/users/[id]": {
    action: "users.role-change",
    run: () => call("PATCH /api/users/[id]", { role: "finance" }, ids.user),
  },
  "DELETE /api/users/[id]": {
    action: "users.delete",
    run: () => call("DELETE /api/users/[id]", undefined, ids.user),
  },
  "POST /api/tokens": {
    action: "tokens.create",
    run: () => call("POST /api/tokens", { name: "ci", scope: "read" }),
  },
  "DELETE /api/tokens/[id]": {
    action: "tokens.revoke",
    run: () => call("DELETE /api/tokens/[id]", undefined, ids.token),
  },
  "PATCH /api/settings": {
    action: "settings.update",
    run: () => call("PATCH /api/settings", { allowPrivateWebhookTargets: false }),
  },
  "POST /api/pricing": {
    action: "pricing.create",
    run: () =>
      call("POST /api/pricing", {
        provider: "tencent",
        instanceType: "GN7.2XLARGE32",
        pricingModel: "on_demand",
        gpuModel: "T4",
        gpuCount: 1,
        gpuMemoryGiB: 16,
        usdPerHour: "1.27",
        effectiveFrom: "2026-11-01",
        source: "test",
        sourceDate: "2026-11",
      }),
  },
  "PATCH /api/pricing/[id]": {
    action: "pricing.update",
    run: () => call("PATCH /api/pricing/[id]", { usdPerHour: "1.30" }, ids.price),
  },
  "POST /api/pricing/[id]/retire": {
    action: "pricing.retire",
    run: () => call("POST /api/pricing/[id]/retire", {}, ids.price),
  },
  "POST /api/pricing/reprice": {
    action: "pricing.reprice",
    run: () => repriceNow(),
  },
  "POST /api/billing/actuals": {
    action: "pricing.reprice",
    run: () => actualsNow(),
  },
  "POST /api/billing/import": {
    action: "billing.import",
    run: () => importBillNow(),
  },
  "POST /api/pricing/import": {
    action: "pricing.import",
    run: () => importPrices(),
  },
  "POST /api/pricing/spot-history": {
    action: "pricing.spot_history.import",
    run: () => importSpotNow(),
  },
  "POST /api/pricing/rates/import": {
    action: "pricing.rates.import",
    run: () => importRatesNow(),
  },
  "POST /api/pricing/rates": {
    action: "pricing.rate.create",
    run: () =>
      call("POST /api/pricing/rates", {
        currency: "CNY",
        usdPerUnit: "0.1405",
        effectiveFrom: "2026-11-01",
        source: "Federal Reserve H.10, https://www.federalreserve.gov/releases/h10/",
        sourceDate: "2026-11",
      }),
  },
  "POST /api/pricing/rates/[id]/retire": {
    action: "pricing.rate.retire",
    run: async () => {
      const r = await db.exchangeRate.create({
        data: {
          currency: "CNY",
          usdPerUnit: "0.14",
          effectiveFrom: new Date("2026-10-01T00:00:00Z"),
          source: "test",
          sourceDate: "2026-10",
        },
      });
      return call("POST /api/pricing/rates/[id]/retire", undefined, r.id);
    },
  },
  "POST /api/work/trials": {
    action: "trials.create",
    run: async () => {
      const host = await db.host.create({ data: { hostname: "trial-audited" } });
      return call("POST /api/work/trials", { hostId: host.id, name: "t1", hours: 24 });
    },
  },
  "POST /api/benchmarks": {
    action: "benchmarks.create",
    run: () => call("POST /api/benchmarks", { ...BENCHMARK, workload: "audited add" }),
  },
  "DELETE /api/benchmarks/[id]": {
    action: "benchmarks.delete",
    run: async () => {
      const b = await db.benchmarkResult.create({ data: { ...BENCHMARK, workload: "to delete" } });
      return call("DELETE /api/benchmarks/[id]", undefined, b.id);
    },
  },
  "POST /api/benchmarks/import": {
    action: "benchmarks.import",
    run: () => {
      const h = handlers.get("POST /api/benchmarks/import");
      if (!h) throw new Error("no handler POST /api/benchmarks/import");
      const csv = `provider,instanceType,workload,unit,value,source,sourceDate,note\naws,g5.xlarge,csv,tokens/s,10,test,2025-01,\n`;
      const headers = { "content-type": "text/csv", cookie: admin.cookie, origin: admin.origin };
      const url = "http://127.0.0.1:3000/api/benchmarks/import";
      return h(new Request(url, { method: "POST", headers, body: csv }), {
        params: Promise.resolve({}),
      });
    },
  },
  // needs a host stopped on a running simulator: audited as policy.start by the service
  // (lib/demo/policies.integration.test.ts)
  "POST /api/policies/hosts/[id]/start": { action: "", run: async () => new Response(null) },
  // a release already under way (a new one needs a wholly idle host and is also audited as
  // policy.accept by the service: lib/policies/accept-release.integration.test.ts)
  "POST /api/recommendations/[id]/release": {
    action: "recommendations.release",
    run: async () => {
      const rec = await makeRecommendation("r-release");
      const policy = await db.policy.create({
        data: { name: "audit release", mode: "active", scopeKind: "fleet", scopeValue: "" },
      });
      const openKey = `${policy.id}:${rec.hostId}`;
      await db.policyEpisode.create({
        data: { policyId: policy.id, hostId: rec.hostId, idleSince: new Date(), openKey },
      });
      return call("POST /api/recommendations/[id]/release", { policyId: policy.id }, rec.id);
    },
  },
  // a resize already under way (a new one is also audited as policy.accept by the service:
  // lib/policies/accept-resize.integration.test.ts)
  "POST /api/recommendations/[id]/resize": {
    action: "recommendations.resize",
    run: async () => {
      const host = await db.host.create({ data: { hostname: "h-r-resize", state: "up" } });
      const rec = await db.recommendation.create({
        data: {
          kind: "right_size",
          hostId: host.id,
          fingerprint: "r-resize",
          title: "t",
          details: "d",
          monthlySavingMicros: 1n,
          evidence: JSON.stringify({
            from: "2026-11-13T00:00:00.000Z",
            to: "2026-11-20T00:00:00.000Z",
            metrics: {},
            series: [],
            current: {
              instanceType: "big",
              pricingModel: "on_demand",
              usdPerHourMicros: "2",
              gpuModel: null,
              gpuCount: null,
              source: null,
            },
            proposed: {
              instanceType: "small",
              pricingModel: "on_demand",
              usdPerHourMicros: "1",
              gpuModel: null,
              gpuCount: null,
              source: null,
            },
            hourlySavingMicros: "1",
            convention: "",
            caveat: null,
          }),
        },
      });
      const policy = await db.policy.create({
        data: { name: "audit resize", mode: "active", scopeKind: "fleet", scopeValue: "" },
      });
      const openKey = `${policy.id}:${host.id}`;
      await db.policyEpisode.create({
        data: { policyId: policy.id, hostId: host.id, idleSince: new Date(), openKey },
      });
      return call("POST /api/recommendations/[id]/resize", { policyId: policy.id }, rec.id);
    },
  },
  // a keep link is public and audited by the service as "keep-link" (lib/policies/lifecycle test)
  "POST /api/policies/keep": { action: "", run: async () => new Response(null) },
  // sign-in, sign-out and first-run setup are audited by their own tests (lib/auth)
  "POST /api/auth/[...all]": { action: "", run: async () => new Response(null) },
  "POST /api/setup": { action: "", run: async () => new Response(null) },
};

describe("audit log", () => {
  it("has a scenario for every mutating route", () => {
    expect([...handlers.keys()].filter((k) => !(k in SCENARIOS)).sort()).toEqual([]);
  });

  it("records who changed what for every mutation, without secrets", async () => {
    ids.alert = (await makeAlert("a1")).id;
    ids.rec = (await makeRecommendation("r1")).id;
    ids.rec2 = (await makeRecommendation("r2")).id;
    ids.rec3 = (await makeRecommendation("r3")).id;
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    for (const [key, s] of Object.entries(SCENARIOS)) {
      if (s.action === "") continue;
      const res = await s.run();
      expect(res.status, `${key}: ${await res.clone().text()}`).toBeLessThan(300);
      const created = (await res
        .clone()
        .json()
        .catch(() => null)) as { id?: string } | null;
      if (key === "POST /api/rules" && created?.id) ids.rule = created.id;
      if (key === "POST /api/budgets" && created?.id) ids.budget = created.id;
      if (key === "POST /api/policies" && created?.id) ids.policy = created.id;
      if (key === "POST /api/channels" && created?.id) ids.channel = created.id;
      if (key === "POST /api/people" && created?.id) ids.person = created.id;
      if (key === "POST /api/users" && created?.id) ids.user = created.id;
      if (key === "POST /api/tokens" && created?.id) ids.token = created.id;
      if (key === "POST /api/pricing" && created?.id) ids.price = created.id;
      const entry = await newestAudit();
      expect(entry.action, key).toBe(s.action);
      expect(entry.actor, key).toBe("auditor@test.local");
      expect(entry.detail, key).not.toContain("127.0.0.1");
      expect(entry.detail, key).not.toContain("long-enough-pw");
      expect(entry.detail, key).not.toContain("gft_");
    }
    spy.mockRestore();
    const roleChange = await db.auditEvent.findFirstOrThrow({
      where: { action: "users.role-change" },
    });
    expect(JSON.parse(roleChange.detail)).toEqual({ role: { from: "viewer", to: "finance" } });
    const budget = await db.auditEvent.findFirstOrThrow({ where: { action: "budgets.update" } });
    expect(JSON.parse(budget.detail)).toEqual({ body: { amount: "2000" } });
  });

  it("records only the fields a route accepted, and refuses bodies over 1 MiB with a 413", async () => {
    // a route that takes no body: the junk is neither parsed nor stored
    const junk = { filler: "x".repeat(250_000) };
    expect((await call("POST /api/alerts/evaluate", junk)).status).toBe(200);
    const entry = await newestAudit();
    expect(entry.action).toBe("alerts.evaluate");
    expect(entry.detail.length).toBeLessThan(200);
    // a declared length over the cap is refused even where the route would ignore the body
    const evaluate = handlers.get("POST /api/alerts/evaluate");
    if (!evaluate) throw new Error("no handler POST /api/alerts/evaluate");
    const tooBig = await evaluate(
      new Request("http://127.0.0.1:3000/api/alerts/evaluate", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-length": String(2_000_000),
          cookie: admin.cookie,
          origin: admin.origin,
        },
        body: "x".repeat(2_000_000),
      }),
      { params: Promise.resolve({}) },
    );
    expect(tooBig.status).toBe(413);
    // a route that validates: unknown fields are refused, so nothing of them is stored either
    const big = await call("POST /api/budgets", {
      name: "Big",
      amount: "1",
      pad: "y".repeat(2 << 20),
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: string }).error).toBe(
      "the request body is larger than 1 MiB, the most this endpoint accepts",
    );
  });

  it("pages by time and id, so entries in the same millisecond are not skipped", async () => {
    const { listAudit, recordAudit } = await import("@/lib/auth/audit.ts");
    const at = new Date("2020-01-01T00:00:00.000Z");
    for (const n of [1, 2, 3]) {
      await recordAudit({ actor: "pager", action: "test.page", target: String(n) });
    }
    await db.auditEvent.updateMany({ where: { actor: "pager" }, data: { at } });
    const first = await listAudit({ limit: 2, actor: "pager" });
    const last = first.at(-1);
    if (!last) throw new Error("no entries");
    const rest = await listAudit({ limit: 2, actor: "pager", before: at, beforeId: last.id });
    expect([...first, ...rest].map((e) => e.target).sort()).toEqual(["1", "2", "3"]);
  });
});
