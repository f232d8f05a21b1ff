import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestSession } from "@/lib/testing/auth.ts";

// GET/POST /api/recommendations/[id]/release as Next calls them: operators and above only, within
// their teams (404 outside), zod-validated bodies (400), 409 for another kind of recommendation, a
// dismissed one, a dry-run policy or a host whose GPUs are not all idle; accepting a host whose
// release is already under way answers that episode and marks the card accepted, twice alike.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-release-${process.pid}-${Date.now()}.db`;
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
const ids = { research: "", infra: "", active: "", dry: "", idle: "", right: "", infraRec: "" };

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
    ids[team] = (await db.host.create({ data: { hostname: `${team}-1`, team, state: "up" } })).id;
  }
  const policy = (name: string, mode: string) =>
    db.policy.create({ data: { name, mode, scopeKind: "fleet", scopeValue: "" } });
  ids.active = (await policy("Idle fleet", "active")).id;
  ids.dry = (await policy("Idle fleet (dry run)", "dry_run")).id;
  const rec = (kind: string, hostId: string) =>
    db.recommendation.create({
      data: {
        kind,
        hostId,
        fingerprint: `${kind}:${hostId}`,
        title: kind,
        details: "",
        monthlySavingMicros: 1_000_000n,
      },
    });
  ids.idle = (await rec("idle_release", ids.research)).id;
  ids.right = (await rec("right_size", ids.research)).id;
  ids.infraRec = (await rec("idle_release", ids.infra)).id;
}, 60_000);
afterAll(async () => db.$disconnect());

const url = (id: string) => `http://127.0.0.1:3000/api/recommendations/${id}/release`;
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
  return [r.status, ((await r.json()) as { code?: string; error?: string }).error ?? ""] as const;
}

describe("/api/recommendations/[id]/release", () => {
  it("lists the active idle-release policies covering the host", async () => {
    const r = await list(limited, ids.idle);
    expect(r.status).toBe(200);
    const body = (await r.json()) as { policies: { id: string }[] };
    expect(body.policies.map((p) => p.id)).toEqual([ids.active]);
  });

  it("refuses viewers (403) and hides other teams' recommendations (404)", async () => {
    expect((await list(viewer, ids.idle)).status).toBe(403);
    expect((await accept(viewer, ids.idle, { policyId: ids.active })).status).toBe(403);
    expect((await list(limited, ids.infraRec)).status).toBe(404);
    expect((await accept(limited, ids.infraRec, { policyId: ids.active })).status).toBe(404);
    expect((await accept(admin, "nope", { policyId: ids.active })).status).toBe(404);
  });

  it("validates the body (400)", async () => {
    expect((await status(accept(admin, ids.idle, {})))[0]).toBe(400);
    expect((await status(accept(admin, ids.idle, { policyId: "" })))[0]).toBe(400);
    const extra = await status(accept(admin, ids.idle, { policyId: ids.active, now: 1 }));
    expect(extra).toEqual([400, expect.stringContaining("unknown field(s): now")]);
    expect((await status(accept(admin, ids.idle, "{not json")))[0]).toBe(400);
  });

  it("answers 409 for another kind, a dry-run policy or a host not wholly idle", async () => {
    expect(await status(accept(admin, ids.right, { policyId: ids.active }))).toEqual([
      409,
      expect.stringContaining("only an idle-host recommendation"),
    ]);
    expect(await status(accept(admin, ids.idle, { policyId: ids.dry }))).toEqual([
      409,
      expect.stringContaining("not active"),
    ]);
    // no GPU readings at all: not idle, never released
    expect(await status(accept(limited, ids.idle, { policyId: ids.active }))).toEqual([
      409,
      expect.stringContaining("not every GPU of research-1 is idle"),
    ]);
    expect(await db.policyEpisode.count()).toBe(0);
    const rec = await db.recommendation.findUniqueOrThrow({ where: { id: ids.idle } });
    expect(rec.state).toBe("open");
  });

  it("a release already under way is answered, once, and the card is accepted", async () => {
    const e = await db.policyEpisode.create({
      data: {
        policyId: ids.active,
        hostId: ids.research,
        idleSince: new Date("2026-11-20T00:00:00Z"),
        openKey: `${ids.active}:${ids.research}`,
      },
    });
    for (let i = 0; i < 2; i++) {
      const r = await accept(limited, ids.idle, { policyId: ids.active });
      expect(r.status).toBe(200);
      expect(await r.json()).toMatchObject({
        recommendation: { id: ids.idle, state: "accepted", actedBy: limited.email },
        release: { episodeId: e.id, policyId: ids.active, created: false, hostname: "research-1" },
      });
    }
    expect(await db.policyEpisode.count()).toBe(1);
  });

  it("a dismissed recommendation is not released (409)", async () => {
    await db.recommendation.update({ where: { id: ids.infraRec }, data: { state: "dismissed" } });
    expect(await status(accept(admin, ids.infraRec, { policyId: ids.active }))).toEqual([
      409,
      expect.stringContaining("dismissed"),
    ]);
  });
});
