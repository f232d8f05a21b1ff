import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestSession } from "@/lib/testing/auth.ts";

// POST /api/alerts/bulk as Next calls it: one action on many alerts, a result per id (one alert in
// the wrong state does not fail the rest), zod-validated bodies (400), at most 500 ids, one audit
// entry naming the ids, and a team-limited operator acting only within their teams.

// The route uses the app's global client, which reads DATABASE_URL when lib/db.ts is first
// imported: point it at a fresh file before anything imports it.
const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-bulk-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

type Db = (typeof import("@/lib/db.ts"))["db"];
type Handler = (req: Request, ctx: unknown) => Promise<Response>;
type Result = {
  action: string;
  results: { id: string; ok: boolean; error?: string }[];
  succeeded: number;
  failed: number;
};

let db: Db;
let bulk: Handler;
let admin: TestSession;
let limited: TestSession;
let ruleId = "";
const hosts = { research: "", infra: "" };

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  db = (await import("@/lib/db.ts")).db;
  const { sessionFor, signIn, cookieFrom, TEST_PASSWORD } = await import("@/lib/testing/auth.ts");
  const { createUser } = await import("@/lib/auth/users.ts");
  const { publicOrigin } = await import("@/lib/auth/auth.ts");
  admin = await sessionFor("admin", "grace@test.local");
  const email = "research-operator@test.local";
  await createUser({ email, password: TEST_PASSWORD, role: "operator", teams: ["research"] });
  limited = { email, cookie: cookieFrom(await signIn(email, TEST_PASSWORD)), origin: admin.origin };
  expect(limited.origin).toBe(publicOrigin());
  bulk = (await import("./route.ts")).POST as Handler;
  ruleId = (await db.alertRule.create({ data: { name: "Idle", kind: "idle", enabled: false } })).id;
  for (const team of ["research", "infra"] as const) {
    hosts[team] = (await db.host.create({ data: { hostname: `${team}-1`, team } })).id;
  }
}, 60_000);
afterAll(async () => db.$disconnect());

let n = 0;
async function alert(
  state: "firing" | "acknowledged" | "resolved" = "firing",
  hostId: string | null = hosts.research,
): Promise<string> {
  n += 1;
  const key = `bulk-${n}`;
  const a = await db.alert.create({
    data: {
      ruleId,
      fingerprint: key,
      openKey: state === "resolved" ? null : key,
      kind: "idle",
      summary: key,
      state,
      hostId,
      team: hostId === hosts.infra ? "infra" : hostId ? "research" : null,
      startsAt: new Date(),
      ...(state === "resolved" ? { endsAt: new Date() } : {}),
    },
  });
  return a.id;
}

function post(s: TestSession, body: unknown): Promise<Response> {
  return bulk(
    new Request("http://127.0.0.1:3000/api/alerts/bulk", {
      method: "POST",
      headers: { "content-type": "application/json", cookie: s.cookie, origin: s.origin },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    { params: Promise.resolve({}) },
  );
}

async function ok(res: Promise<Response>): Promise<Result> {
  const r = await res;
  expect(r.status, await r.clone().text()).toBe(200);
  return (await r.json()) as Result;
}

const stateOf = async (id: string) => (await db.alert.findUniqueOrThrow({ where: { id } })).state;

describe("POST /api/alerts/bulk", () => {
  it("acknowledges every alert named, each with its event, under one audit entry", async () => {
    const ids = [await alert(), await alert(), await alert()];
    const res = await ok(post(admin, { ids, action: "acknowledge", note: "batch" }));
    expect(res).toEqual({
      action: "acknowledge",
      results: ids.map((id) => ({ id, ok: true })),
      succeeded: 3,
      failed: 0,
    });
    for (const id of ids) {
      const a = await db.alert.findUniqueOrThrow({ where: { id }, include: { events: true } });
      expect(a).toMatchObject({ state: "acknowledged", acknowledgedBy: "grace@test.local" });
      expect(a.events.map((e) => [e.to, e.by, e.note])).toContainEqual([
        "acknowledged",
        "grace@test.local",
        "batch",
      ]);
    }
    const entry = await db.auditEvent.findFirstOrThrow({
      orderBy: [{ at: "desc" }, { id: "desc" }],
    });
    expect(entry).toMatchObject({
      actor: "grace@test.local",
      action: "alerts.bulk.acknowledge",
      target: "3 alerts",
    });
    expect(JSON.parse(entry.detail)).toEqual({ ids, note: "batch" });
  });

  it("mixed states: a result per id, the wrong state and unknown ids fail alone", async () => {
    const firing = await alert();
    const acked = await alert("acknowledged");
    const resolved = await alert("resolved");
    const res = await ok(
      post(admin, { ids: [firing, acked, resolved, "nope", firing], action: "acknowledge" }),
    );
    expect(res.results).toEqual([
      { id: firing, ok: true },
      { id: acked, ok: true },
      { id: resolved, ok: false, error: "alert is resolved, not firing" },
      { id: "nope", ok: false, error: "alert nope not found" },
    ]);
    expect(res).toMatchObject({ succeeded: 2, failed: 2 });
    expect(await stateOf(firing)).toBe("acknowledged");
    expect(await stateOf(resolved)).toBe("resolved");
    const entry = await db.auditEvent.findFirstOrThrow({
      where: { action: "alerts.bulk.acknowledge" },
      orderBy: [{ at: "desc" }, { id: "desc" }],
    });
    expect(JSON.parse(entry.detail)).toEqual({
      ids: [firing, acked],
      failed: [
        { id: resolved, error: "alert is resolved, not firing" },
        { id: "nope", error: "alert nope not found" },
      ],
    });

    // snooze, then resolve, the same mix
    const snoozed = await ok(
      post(admin, { ids: [firing, acked, resolved], action: "snooze", minutes: 60 }),
    );
    expect(snoozed.results.every((r) => r.ok)).toBe(true);
    const until = (await db.alert.findUniqueOrThrow({ where: { id: firing } })).snoozedUntil;
    expect(until?.getTime()).toBeGreaterThan(Date.now() + 59 * 60_000);
    const gone = await ok(post(admin, { ids: [firing, acked, "nope"], action: "resolve" }));
    expect(gone.results.map((r) => r.ok)).toEqual([true, true, false]);
    expect(await stateOf(acked)).toBe("resolved");
    expect((await db.alert.findUniqueOrThrow({ where: { id: acked } })).resolvedBy).toBe(
      "grace@test.local",
    );
  });

  it("refuses a bad body with 400 and the fields at fault", async () => {
    const id = await alert();
    const cases: [unknown, string][] = [
      ["{nope", ""],
      [{ ids: [id] }, "action"],
      [{ ids: [], action: "acknowledge" }, "ids"],
      [{ ids: [""], action: "acknowledge" }, "ids.0"],
      [{ ids: id, action: "acknowledge" }, "ids"],
      [{ ids: [id], action: "delete" }, "action"],
      [{ ids: [id], action: "snooze" }, "minutes"],
      [{ ids: [id], action: "snooze", minutes: 0 }, "minutes"],
      [{ ids: [id], action: "acknowledge", minutes: 60 }, "minutes"],
      [{ ids: [id], action: "acknowledge", extra: 1 }, "extra"],
    ];
    for (const [body, path] of cases) {
      const res = await post(admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const err = (await res.json()) as { error: string; issues?: { path: string }[] };
      if (path)
        expect(
          err.issues?.map((i) => i.path),
          JSON.stringify(body),
        ).toContain(path);
    }
    expect(await stateOf(id)).toBe("firing");
  });

  it("takes at most 500 ids: 501 is refused, 500 is acted on", async () => {
    const id = await alert();
    const many = (k: number) => [id, ...Array.from({ length: k - 1 }, (_, i) => `missing-${i}`)];
    const refused = await post(admin, { ids: many(501), action: "acknowledge" });
    expect(refused.status).toBe(400);
    const err = (await refused.json()) as { issues: { path: string; message: string }[] };
    expect(err.issues).toEqual([{ path: "ids", message: "at most 500 alerts at once" }]);
    expect(await stateOf(id)).toBe("firing");

    const done = await ok(post(admin, { ids: many(500), action: "acknowledge" }));
    expect(done).toMatchObject({ succeeded: 1, failed: 499 });
    expect(await stateOf(id)).toBe("acknowledged");
  });

  it("a team-limited operator acts only on their teams' alerts; others read as unknown", async () => {
    const mine = await alert("firing", hosts.research);
    const theirs = await alert("firing", hosts.infra);
    const fleetWide = await alert("firing", null);
    const res = await ok(
      post(limited, { ids: [mine, theirs, fleetWide, "nope"], action: "acknowledge" }),
    );
    expect(res.results).toEqual([
      { id: mine, ok: true },
      { id: theirs, ok: false, error: `alert ${theirs} not found` },
      { id: fleetWide, ok: false, error: `alert ${fleetWide} not found` },
      { id: "nope", ok: false, error: "alert nope not found" },
    ]);
    expect(await stateOf(mine)).toBe("acknowledged");
    expect(await stateOf(theirs)).toBe("firing");
    expect(await stateOf(fleetWide)).toBe("firing");
    for (const [action, extra] of [
      ["snooze", { minutes: 30 }],
      ["resolve", {}],
    ] as const) {
      const r = await ok(post(limited, { ids: [theirs, fleetWide], action, ...extra }));
      expect(r).toMatchObject({ succeeded: 0, failed: 2 });
    }
    const other = await db.alert.findUniqueOrThrow({ where: { id: theirs } });
    expect(other).toMatchObject({ state: "firing", snoozedUntil: null });
    // nothing changed, nothing audited
    const last = await db.auditEvent.findFirstOrThrow({
      orderBy: [{ at: "desc" }, { id: "desc" }],
    });
    expect(last.actor).toBe(limited.email);
    expect(JSON.parse(last.detail)).toMatchObject({ ids: [mine] });

    // the unlimited admin reaches the same alerts
    const all = await ok(post(admin, { ids: [theirs, fleetWide], action: "resolve" }));
    expect(all).toMatchObject({ succeeded: 2, failed: 0 });
  });

  it("a viewer may not act at all", async () => {
    const { sessionFor } = await import("@/lib/testing/auth.ts");
    const viewer = await sessionFor("viewer");
    const id = await alert();
    expect((await post(viewer, { ids: [id], action: "acknowledge" })).status).toBe(403);
    expect(await stateOf(id)).toBe("firing");
  });
});
