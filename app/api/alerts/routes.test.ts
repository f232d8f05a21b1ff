import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestSession } from "@/lib/testing/auth.ts";

// The alerting routes as Next calls them: zod-validated bodies (400 with a message and per-field
// issues), 404 on unknown ids, 409 on impossible state changes, the acting user from the header.

// The routes use the app's global client, which reads DATABASE_URL when lib/db.ts is first
// imported: point it at a fresh file before anything imports it.
const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-routes-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

type Ctx = { params: Promise<{ id: string }> };
/** Collection routes take no route params; Next still passes a context. */
const call = (h: (req: Request, ctx: unknown) => Promise<Response>, req: Request) =>
  h(req, undefined);
const ctx = (id: string): Ctx => ({ params: Promise.resolve({ id }) });
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`http://local${url}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

let routes: {
  rules: typeof import("../rules/route.ts");
  rule: typeof import("../rules/[id]/route.ts");
  budgets: typeof import("../budgets/route.ts");
  channels: typeof import("../channels/route.ts");
  channel: typeof import("../channels/[id]/route.ts");
  alert: typeof import("./[id]/route.ts");
  ack: typeof import("./[id]/acknowledge/route.ts");
  list: typeof import("./route.ts");
  dismiss: typeof import("../recommendations/[id]/dismiss/route.ts");
};
let disconnect: () => Promise<void> = async () => {};

let admin: TestSession;

beforeAll(async () => {
  // the migrated template copy that makeTestDb() also uses
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  const { asUser, sessionFor } = await import("@/lib/testing/auth.ts");
  admin = await sessionFor("admin", "grace@test.local");
  const as = <M extends Record<string, unknown>>(m: M) => asUser(m, admin);
  routes = {
    rules: as(await import("../rules/route.ts")),
    rule: as(await import("../rules/[id]/route.ts")),
    budgets: as(await import("../budgets/route.ts")),
    channels: as(await import("../channels/route.ts")),
    channel: as(await import("../channels/[id]/route.ts")),
    alert: as(await import("./[id]/route.ts")),
    ack: as(await import("./[id]/acknowledge/route.ts")),
    list: as(await import("./route.ts")),
    dismiss: as(await import("../recommendations/[id]/dismiss/route.ts")),
  };
  const { db } = await import("@/lib/db.ts");
  disconnect = () => db.$disconnect();
});
afterAll(async () => disconnect());

describe("alerting API", () => {
  it("creates a rule with defaults and refuses bad input with a message per field", async () => {
    const ok = await call(routes.rules.POST, post("/api/rules", { name: "Idle", kind: "idle" }));
    expect(ok.status).toBe(201);
    const rule = (await ok.json()) as { id: string; params: Record<string, unknown> };
    expect(rule.params).toEqual({
      utilThreshold: 0.05,
      durationMinutes: 30,
      heldMemRatio: 0.01,
      notify: "held_and_empty",
    });

    const bad = await call(
      routes.rules.POST,
      post("/api/rules", {
        name: "",
        kind: "idle",
        scopeKind: "team",
        params: { durationMinutes: 0 },
      }),
    );
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: string; issues: { path: string }[] };
    expect(body.error).toMatch(/^invalid body: /);
    expect(body.issues.map((i) => i.path).sort()).toEqual([
      "name",
      "params.durationMinutes",
      "scopeValue",
    ]);

    expect((await call(routes.rules.POST, post("/api/rules", "{nope"))).status).toBe(400);
    expect(
      (await call(routes.rules.POST, post("/api/rules", { name: "x", kind: "nope" }))).status,
    ).toBe(400);

    // PATCH merges, then validates the whole rule
    const patched = await routes.rule.PATCH(
      new Request("http://local/api/rules/x", {
        method: "PATCH",
        body: JSON.stringify({ params: { utilThreshold: 2 } }),
      }),
      ctx(rule.id),
    );
    expect(patched.status).toBe(400);
    expect(((await patched.json()) as { error: string }).error).toContain(
      "params.utilThreshold: at most 100 % (a ratio of 1)",
    );
    expect(
      (await routes.rule.GET(new Request("http://local/api/rules/missing"), ctx("missing"))).status,
    ).toBe(404);
  });

  it("budgets: exact amounts, duplicate scope is a conflict", async () => {
    const make = () =>
      call(
        routes.budgets.POST,
        post("/api/budgets", {
          name: "Research",
          scopeKind: "team",
          scopeValue: "research",
          amount: "12000.50",
        }),
      );
    const first = await make();
    expect(first.status).toBe(201);
    expect(((await first.json()) as { amountMicros: string }).amountMicros).toBe("12000500000");
    const second = await make();
    expect(second.status).toBe(409);
    const noScope = await call(
      routes.budgets.POST,
      post("/api/budgets", { name: "x", scopeKind: "team", amount: "1" }),
    );
    expect(
      ((await noScope.json()) as { issues: { path: string; message: string }[] }).issues,
    ).toEqual([{ path: "scopeValue", message: "name the team this budget covers" }]);
  });

  it("channels: http(s) only, and the URL comes back redacted", async () => {
    const bad = await call(
      routes.channels.POST,
      post("/api/channels", { name: "x", kind: "webhook", url: "file:///etc/passwd" }),
    );
    expect(bad.status).toBe(400);
    const ok = await call(
      routes.channels.POST,
      post("/api/channels", {
        name: "x",
        kind: "slack",
        url: "https://u:secret@10.0.0.1/services/T1/B2/abcdefabcdef?token=zzz",
      }),
    );
    const c = (await ok.json()) as { id: string; url: string };
    expect(c.url).toBe("https://***@10.0.0.1/services/***/***/***?token=***");
    const listed = await (
      await call(routes.channels.GET, new Request("http://local/api/channels"))
    ).text();
    expect(listed).not.toContain("secret");
    expect(listed).not.toContain("zzz");
    expect((await routes.channel.DELETE(new Request("http://local/x"), ctx(c.id))).status).toBe(
      204,
    );
    expect((await routes.channel.DELETE(new Request("http://local/x"), ctx(c.id))).status).toBe(
      404,
    );
  });

  it("alerts: 404 on unknown ids, acknowledge records the signed-in user, 409 when resolved", async () => {
    expect(
      (await routes.alert.GET(new Request("http://local/api/alerts/nope"), ctx("nope"))).status,
    ).toBe(404);
    expect(
      (await routes.ack.POST(post("/api/alerts/nope/acknowledge", {}), ctx("nope"))).status,
    ).toBe(404);
    const { db } = await import("@/lib/db.ts");
    const rule = await db.alertRule.findFirstOrThrow();
    const a = await db.alert.create({
      data: {
        ruleId: rule.id,
        fingerprint: "f",
        openKey: "f",
        kind: "idle",
        summary: "s",
        startsAt: new Date(),
      },
    });
    const acked = await routes.ack.POST(
      post(`/api/alerts/${a.id}/acknowledge`, { note: "mine" }),
      ctx(a.id),
    );
    expect(acked.status).toBe(200);
    expect(await acked.json()).toMatchObject({
      state: "acknowledged",
      acknowledgedBy: "grace@test.local",
    });
    const anon = await db.alert.create({
      data: {
        ruleId: rule.id,
        fingerprint: "g",
        openKey: "g",
        kind: "idle",
        summary: "s",
        startsAt: new Date(),
      },
    });
    await routes.ack.POST(post(`/api/alerts/${anon.id}/acknowledge`, {}), ctx(anon.id));
    expect((await db.alert.findUniqueOrThrow({ where: { id: anon.id } })).acknowledgedBy).toBe(
      "grace@test.local",
    );
    await db.alert.update({ where: { id: anon.id }, data: { state: "resolved", openKey: null } });
    await db.alert.update({ where: { id: a.id }, data: { state: "resolved", openKey: null } });
    expect(
      (await routes.ack.POST(post(`/api/alerts/${a.id}/acknowledge`, {}), ctx(a.id))).status,
    ).toBe(409);
    const list = await call(routes.list.GET, new Request("http://local/api/alerts?state=bogus"));
    expect(list.status).toBe(400);
    const dismiss = await routes.dismiss.POST(
      post("/api/recommendations/x/dismiss", { reason: "" }),
      ctx("x"),
    );
    expect(dismiss.status).toBe(400);
  });
});
