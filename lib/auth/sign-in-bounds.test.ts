import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { clearOfCountWindowEdge } from "@/lib/testing/auth.ts";

// What a signed-out caller can make the store hold: nothing for a malformed email or a request
// over the per-address limit, and one counted audit row per email and window for refusals.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-signin-bounds-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

type Route = typeof import("@/app/api/auth/[...all]/route.ts");
let route: Route;
let db: (typeof import("@/lib/db.ts"))["db"];
let limiter: (typeof import("./ip-limit.ts"))["signInLimiter"];
const ORIGIN = "http://127.0.0.1:3000";
const PASSWORD = "correct-horse-battery";

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  route = await import("@/app/api/auth/[...all]/route.ts");
  db = (await import("@/lib/db.ts")).db;
  limiter = (await import("./ip-limit.ts")).signInLimiter;
  const { createUser } = await import("./users.ts");
  await createUser({ email: "eve@test.local", password: PASSWORD, role: "viewer" });
}, 60_000);
afterAll(async () => db.$disconnect());
beforeEach(async () => {
  limiter.reset();
  await db.auditEvent.deleteMany({});
  await db.signInThrottle.deleteMany({});
});

const signIn = (email: unknown, ip = "203.0.113.7") =>
  route.POST(
    new Request(`${ORIGIN}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: ORIGIN, "x-forwarded-for": ip },
      body: JSON.stringify({ email, password: "wrong-password-x" }),
    }),
    undefined,
  );

const written = async () => ({
  audit: await db.auditEvent.count(),
  throttle: await db.signInThrottle.count(),
});

describe("sign-in writes are bounded", () => {
  it("an email that is not an email is refused with 400 and writes nothing", async () => {
    for (const email of [
      "<img src=x onerror=alert(1)>",
      "no-at-sign",
      "a@",
      "@b.c",
      "x".repeat(300) + "@t.local",
    ]) {
      const res = await signIn(email);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: "email is not an email address",
        code: "invalid_email",
      });
    }
    expect(await written()).toEqual({ audit: 0, throttle: 0 });
  });

  it("past the per-address limit a request is refused before anything is written", async () => {
    const { SIGN_IN_MAX_PER_ADDRESS } = await import("./ip-limit.ts");
    const statuses: number[] = [];
    await clearOfCountWindowEdge(30_000);
    for (let i = 0; i < SIGN_IN_MAX_PER_ADDRESS + 30; i++) {
      statuses.push((await signIn(`random-${i}@example.test`)).status);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_MAX_PER_ADDRESS);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    // one throttle row per email that was checked (they expire), none for the rest; the audit
    // counts the invented emails in one row for the address, naming none of them
    expect(await written()).toEqual({ audit: 1, throttle: SIGN_IN_MAX_PER_ADDRESS });
    const [row] = await db.auditEvent.findMany();
    expect(row?.actor).toBe("(an email with no account)");
    expect(row?.ip).toBe("203.0.113.7");
    expect(JSON.parse(row?.detail ?? "")).toMatchObject({ count: SIGN_IN_MAX_PER_ADDRESS });
    const refused = await signIn("random-0@example.test");
    expect(refused.status).toBe(429);
    expect((await refused.json()).code).toBe("too_many_requests");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // another address is not held back by this one
    expect((await signIn("random-0@example.test", "198.51.100.9")).status).toBe(401);
  }, 60_000);

  it("repeated refusals of one email are one row per window: failures counted, the lock noted once", async () => {
    const { LOCK_AFTER } = await import("./throttle.ts");
    await clearOfCountWindowEdge();
    for (let i = 0; i < LOCK_AFTER + 4; i++) await signIn("eve@test.local", "192.0.2.33");
    const rows = await db.auditEvent.findMany({ orderBy: { action: "asc" } });
    expect(rows.map((r) => [r.actor, r.action])).toEqual([
      ["eve@test.local", "auth.sign-in.failed"],
      ["eve@test.local", "auth.sign-in.refused"],
    ]);
    expect(JSON.parse(rows[0]?.detail ?? "")).toMatchObject({ count: LOCK_AFTER, locked: true });
    expect(JSON.parse(rows[1]?.detail ?? "")).toEqual({ retryAfterS: expect.any(Number) });
  }, 60_000);

  it("the audit actor is the validated, lowercased email of an account", async () => {
    expect((await signIn("EVE@Test.LOCAL", "192.0.2.44")).status).toBe(401);
    expect((await signIn("Mallory@Example.TEST", "192.0.2.44")).status).toBe(401);
    const rows = await db.auditEvent.findMany({ orderBy: { actor: "asc" } });
    expect(rows.map((r) => r.actor)).toEqual(["(an email with no account)", "eve@test.local"]);
  });

  it("throttle rows whose window and lock have passed are deleted by the next claim", async () => {
    const { claimAttempt, settleFailure, LOCK_AFTER, LOCK_FOR_MS, WINDOW_MS } =
      await import("./throttle.ts");
    const t0 = new Date("2026-01-01T00:00:00Z");
    await claimAttempt("once@test.local", t0);
    // first failure at t0, the locking one ten minutes later: locked until t0 + 25 min
    for (let i = 0; i < LOCK_AFTER; i++) {
      const at = new Date(t0.getTime() + (i === LOCK_AFTER - 1 ? 10 * 60_000 : 0));
      const claim = await claimAttempt("locked@test.local", at);
      if (claim.kind === "check") await settleFailure("locked@test.local", claim.attempt, at);
    }
    // past the window, the lock still holds: only the unlocked row goes
    await claimAttempt("next@test.local", new Date(t0.getTime() + WINDOW_MS + 1000));
    const keys = async () => (await db.signInThrottle.findMany()).map((r) => r.key).sort();
    expect(await keys()).toEqual(["email:locked@test.local", "email:next@test.local"]);
    const later = new Date(t0.getTime() + 10 * 60_000 + LOCK_FOR_MS + 1000);
    await claimAttempt("last@test.local", later);
    expect(await keys()).toEqual(["email:last@test.local", "email:next@test.local"]);
  });
});
