import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestSession } from "@/lib/testing/auth.ts";

// GET/POST /api/recommendations/[id]/resize as Next calls them: operators and above only (the
// release route's permission), within their teams (404 outside), zod-validated bodies (400), 409
// for another kind of recommendation, a dismissed one, one without instance types, a dry-run
// policy or one whose executor cannot resize; accepting schedules one resize episode to the
// recommendation's proposed type and marks the card accepted, and accepting again answers it.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-resize-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

type Db = (typeof import("@/lib/db.ts"))["db"];
type Handler = (req: Request, ctx: unknown) => Promise<Response>;

let db: Db;
let get: Handler;
let post: Handler;
let admin: TestSession;
let viewer: TestSession;
let limited: TestSession;
const ids = { research: "", infra: "", sim: "", ali: "", dry: "", right: "", idle: "" };
const more = { bare: "", infraRec: "" };

const ref = (instanceType: string, micros: string) => ({
  instanceType,
  pricingModel: "on_demand",
  usdPerHourMicros: micros,
  gpuModel: "A10G",
  gpuCount: 1,
  source: "test",
});
const evidence = JSON.stringify({
  from: "2026-11-13T00:00:00.000Z",
  to: "2026-11-20T00:00:00.000Z",
  metrics: { utilP95: 0.2 },
  series: [],
  current: ref("g5.12xlarge", "5672000"),
  proposed: ref("g5.2xlarge", "1212000"),
  hourlySavingMicros: "4460000",
  convention: "730 h",
  caveat: null,
});

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  db = (await import("@/lib/db.ts")).db;
  const { sessionFor, signIn, cookieFrom, TEST_PASSWORD } = await import("@/lib/testing/auth.ts");
  const { createUser } = await import("@/lib/auth/users.ts");
  admin = await sessionFor("admin", "grace@test.local");
  viewer = await sessionFor("viewer");
  const email = "research-operator@test.local";
  await createUser({ email, password: TEST_PASSWORD, role: "operator", teams: ["research"] });
  limited = { email, cookie: cookieFrom(await signIn(email, TEST_PASSWORD)), origin: admin.origin };
  const route = await import("./route.ts");
  get = route.GET as Handler;
  post = route.POST as Handler;
  for (const team of ["research", "infra"] as const) {
    const data = { hostname: `${team}-1`, team, state: "up", instanceType: "g5.12xlarge" };
    ids[team] = (await db.host.create({ data })).id;
  }
  const policy = (name: string, mode: string, executor: string) =>
    db.policy.create({ data: { name, mode, executor, scopeKind: "fleet", scopeValue: "" } });
  ids.sim = (await policy("Fleet (simulated)", "active", "simulated")).id;
  ids.ali = (await policy("Fleet (Tencent)", "active", "tencent")).id;
  ids.dry = (await policy("Fleet dry run", "dry_run", "simulated")).id;
  const rec = (kind: string, hostId: string, ev = evidence) =>
    db.recommendation.create({
      data: {
        kind,
        hostId,
        fingerprint: `${kind}:${hostId}:${ev.length}`,
        title: kind,
        details: "",
        evidence: ev,
        monthlySavingMicros: 3_255_800_000n,
      },
    });
  ids.right = (await rec("right_size", ids.research)).id;
  ids.idle = (await rec("idle_release", ids.research)).id;
  more.bare = (await rec("right_size", ids.research, "{}")).id;
  more.infraRec = (await rec("right_size", ids.infra)).id;
}, 60_000);
afterAll(async () => db.$disconnect());

const url = (id: string) => `http://127.0.0.1:3000/api/recommendations/${id}/resize`;
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const headers = (s: TestSession) => ({ cookie: s.cookie, origin: s.origin });
const list = (s: TestSession, id: string) =>
  get(new Request(url(id), { headers: headers(s) }), ctx(id));
const accept = (s: TestSession, id: string, body: unknown) =>
  post(
    new Request(url(id), {
      method: "POST",
      headers: { ...headers(s), "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    ctx(id),
  );
async function status(res: Promise<Response>) {
  const r = await res;
  return [r.status, ((await r.json()) as { error?: string }).error ?? ""] as const;
}

describe("/api/recommendations/[id]/resize", () => {
  it("lists the covering policies that can resize, and apart those that cannot", async () => {
    const r = await list(limited, ids.right);
    expect(r.status).toBe(200);
    const body = (await r.json()) as { policies: { id: string }[]; cannotResize: { id: string }[] };
    expect(body.policies.map((p) => p.id)).toEqual([ids.sim]);
    expect(body.cannotResize.map((p) => p.id)).toEqual([ids.ali]);
  });

  it("refuses viewers (403) and hides other teams' recommendations (404)", async () => {
    expect((await list(viewer, ids.right)).status).toBe(403);
    expect((await accept(viewer, ids.right, { policyId: ids.sim })).status).toBe(403);
    expect((await list(limited, more.infraRec)).status).toBe(404);
    expect((await accept(limited, more.infraRec, { policyId: ids.sim })).status).toBe(404);
    expect((await accept(admin, "nope", { policyId: ids.sim })).status).toBe(404);
  });

  it("validates the body (400)", async () => {
    expect((await status(accept(admin, ids.right, {})))[0]).toBe(400);
    expect((await status(accept(admin, ids.right, { policyId: " " })))[0]).toBe(400);
    const extra = await status(accept(admin, ids.right, { policyId: ids.sim, to: "p5.48xlarge" }));
    expect(extra).toEqual([400, expect.stringContaining("unknown field(s): to")]);
    expect((await status(accept(admin, ids.right, "{not json")))[0]).toBe(400);
  });

  it("answers 409 for another kind, no types, a dry run or an executor that cannot resize", async () => {
    expect(await status(accept(admin, ids.idle, { policyId: ids.sim }))).toEqual([
      409,
      expect.stringContaining("only a right-size recommendation"),
    ]);
    expect(await status(accept(admin, more.bare, { policyId: ids.sim }))).toEqual([
      409,
      expect.stringContaining("names no instance types"),
    ]);
    expect(await status(accept(admin, ids.right, { policyId: ids.dry }))).toEqual([
      409,
      expect.stringContaining("not active"),
    ]);
    expect(await status(accept(admin, ids.right, { policyId: ids.ali }))).toEqual([
      409,
      expect.stringContaining("tencent executor, which cannot resize"),
    ]);
    expect(await db.policyEpisode.count()).toBe(0);
  });

  it("schedules one resize to the proposed type and accepts the card, twice alike", async () => {
    const first = await accept(limited, ids.right, { policyId: ids.sim });
    expect(first.status).toBe(200);
    const body = (await first.json()) as { resize: { episodeId: string } };
    expect(body).toMatchObject({
      recommendation: { id: ids.right, state: "accepted", actedBy: limited.email },
      resize: {
        policyId: ids.sim,
        action: "resize",
        created: true,
        hostname: "research-1",
        resize: { from: "g5.12xlarge", to: "g5.2xlarge", monthlySavingMicros: "3255800000" },
      },
    });
    const again = await accept(limited, ids.right, { policyId: ids.sim });
    expect(await again.json()).toMatchObject({
      resize: { episodeId: body.resize.episodeId, created: false },
    });
    const e = await db.policyEpisode.findFirstOrThrow({ where: { hostId: ids.research } });
    expect(e).toMatchObject({ resizeTo: "g5.2xlarge", resizeFrom: "g5.12xlarge" });
    expect(await db.policyEpisode.count()).toBe(1);
  });

  it("a dismissed recommendation is not resized (409)", async () => {
    await db.recommendation.update({ where: { id: more.infraRec }, data: { state: "dismissed" } });
    expect(await status(accept(admin, more.infraRec, { policyId: ids.sim }))).toEqual([
      409,
      expect.stringContaining("dismissed"),
    ]);
  });
});
