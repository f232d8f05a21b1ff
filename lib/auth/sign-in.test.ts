import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { clearOfCountWindowEdge } from "@/lib/testing/auth.ts";

// Sign-in through the app's own /api/auth route: cookies, failure throttling, the audit trail,
// sign-out, and the first-run setup link.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-signin-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

type Route = typeof import("@/app/api/auth/[...all]/route.ts");
let route: Route;
let db: (typeof import("@/lib/db.ts"))["db"];
const ORIGIN = "http://127.0.0.1:3000";
const PASSWORD = "correct-horse-battery";

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  route = await import("@/app/api/auth/[...all]/route.ts");
  db = (await import("@/lib/db.ts")).db;
  const { createUser } = await import("./users.ts");
  await createUser({ email: "Ada@Test.local", password: PASSWORD, role: "finance" });
  await createUser({ email: "bob@test.local", password: PASSWORD, role: "viewer" });
}, 60_000);
afterAll(async () => db.$disconnect());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  route.POST(
    new Request(`${ORIGIN}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: ORIGIN, ...headers },
      body: JSON.stringify(body),
    }),
    undefined,
  );

const signIn = (email: string, password: string) => post("/sign-in/email", { email, password });

async function actions(actor: string): Promise<string[]> {
  const rows = await db.auditEvent.findMany({
    where: { actor },
    orderBy: [{ at: "asc" }, { id: "asc" }],
  });
  return rows.map((r) => r.action);
}

async function failedDetail(actor: string): Promise<unknown> {
  const row = await db.auditEvent.findFirstOrThrow({
    where: { actor, action: "auth.sign-in.failed" },
  });
  return JSON.parse(row.detail);
}

beforeEach(async () => (await import("./ip-limit.ts")).signInLimiter.reset());

describe("sign-in", () => {
  it("sets an httpOnly SameSite session cookie, stores only a scrypt hash, and audits", async () => {
    const res = await signIn("ada@test.local", PASSWORD);
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("gpufleet.session_token="));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    // served over http here; GPUFLEET_PUBLIC_URL=https://… makes it Secure
    expect(cookie).not.toMatch(/Secure/i);
    const account = await db.account.findFirstOrThrow({
      where: { user: { email: "ada@test.local" } },
    });
    expect(account.password).not.toContain(PASSWORD);
    expect(account.password).toMatch(/^[0-9a-f]+:[0-9a-f]+$/); // better-auth's scrypt salt:key
    expect(await actions("ada@test.local")).toContain("auth.sign-in");
  });

  it("refuses a wrong password, slows repeated failures down, then locks the email", async () => {
    const { throttleState } = await import("./throttle.ts");
    await clearOfCountWindowEdge();
    for (let i = 1; i <= 3; i++)
      expect((await signIn("bob@test.local", "wrong-password-x")).status).toBe(401);
    // better-auth's own refusal is answered in the API's one error shape
    const wrong = await signIn("nobody@test.local", "wrong-password-x");
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({
      error: expect.stringMatching(/invalid email or password/i),
      code: "invalid_email_or_password",
    });
    expect(await throttleState("bob@test.local")).toEqual({ kind: "open", delayMs: 1000 });
    expect((await signIn("BOB@test.local", "wrong-password-x")).status).toBe(401);
    expect(await throttleState("bob@test.local")).toEqual({ kind: "open", delayMs: 2000 });
    expect((await signIn("bob@test.local", "wrong-password-x")).status).toBe(401);
    // locked now: even the right password is refused, with when to come back
    const locked = await signIn("bob@test.local", PASSWORD);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(800);
    const lockedBody = (await locked.json()) as { error: string; code: string };
    expect(lockedBody.error).toMatch(
      /Too many failed sign-ins for this email\. Try again in 15 minutes\./,
    );
    expect(lockedBody.code).toBe("too_many_failed_sign_ins");
    // the five failures are one audit row that counts them; the refusal is noted once
    expect(await actions("bob@test.local")).toEqual([
      "auth.sign-in.failed",
      "auth.sign-in.refused",
    ]);
    expect(await failedDetail("bob@test.local")).toMatchObject({ count: 5, locked: true });
    // other accounts are unaffected
    expect((await signIn("ada@test.local", PASSWORD)).status).toBe(200);
  }, 60_000);

  it("parallel guesses: exactly five passwords are checked, the rest refused unchecked", async () => {
    const { LOCK_AFTER } = await import("./throttle.ts");
    await (
      await import("./users.ts")
    ).createUser({
      email: "dan@test.local",
      password: PASSWORD,
      role: "viewer",
    });
    await clearOfCountWindowEdge();
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => signIn("dan@test.local", "wrong-password-x")),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOCK_AFTER);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - LOCK_AFTER);
    expect(await failedDetail("dan@test.local")).toMatchObject({ count: LOCK_AFTER, locked: true });
    // and the right password is refused too until the lock expires
    expect((await signIn("dan@test.local", PASSWORD)).status).toBe(429);
  }, 60_000);

  it("a form-encoded or email-less sign-in is refused before it reaches better-auth", async () => {
    const form = await route.POST(
      new Request(`${ORIGIN}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
        body: new URLSearchParams({ email: "ada@test.local", password: PASSWORD }).toString(),
      }),
      undefined,
    );
    expect(form.status).toBe(415);
    expect(form.headers.getSetCookie()).toEqual([]);
    expect(JSON.stringify(await form.json())).not.toMatch(/token/i);
    const plain = await route.POST(
      new Request(`${ORIGIN}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "text/plain", origin: ORIGIN },
        body: JSON.stringify({ email: "ada@test.local", password: PASSWORD }),
      }),
      undefined,
    );
    expect(plain.status).toBe(415);
    expect(await plain.json()).toEqual({
      error: "send the body as application/json",
      code: "unsupported_media_type",
    });
    const noEmail = await post("/sign-in/email", { password: PASSWORD });
    expect(noEmail.status).toBe(400);
    const change = await route.POST(
      new Request(`${ORIGIN}/api/auth/change-password`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
        body: "currentPassword=a&newPassword=b",
      }),
      undefined,
    );
    expect(change.status).toBe(415);
  });

  it("the lock and the count expire", async () => {
    const { claimAttempt, settleFailure, throttleState, LOCK_AFTER, LOCK_FOR_MS } =
      await import("./throttle.ts");
    const t0 = new Date("2026-01-01T00:00:00Z");
    for (let i = 0; i < LOCK_AFTER; i++) {
      const claim = await claimAttempt("carol@test.local", t0);
      if (claim.kind === "check") await settleFailure("carol@test.local", claim.attempt, t0);
    }
    expect((await throttleState("carol@test.local", t0)).kind).toBe("locked");
    const later = new Date(t0.getTime() + LOCK_FOR_MS + 1000);
    expect(await throttleState("carol@test.local", later)).toEqual({ kind: "open", delayMs: 0 });
  });

  it("signs out: the cookie stops working and the audit log says so", async () => {
    const res = await signIn("ada@test.local", PASSWORD);
    const cookie = (res.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
    const { authenticate } = await import("./actor.ts");
    expect(await authenticate(new Headers({ cookie }))).toMatchObject({
      email: "ada@test.local",
      role: "finance",
    });
    expect((await post("/sign-out", {}, { cookie })).status).toBe(200);
    expect(await authenticate(new Headers({ cookie }))).toBeNull();
    expect((await actions("ada@test.local")).at(-1)).toBe("auth.sign-out");
  });

  it("only the endpoints gpufleet uses exist: no sign-up", async () => {
    const res = await post("/sign-up/email", {
      email: "eve@test.local",
      password: PASSWORD,
      name: "e",
    });
    expect(res.status).toBe(404);
    expect(await db.user.count({ where: { email: "eve@test.local" } })).toBe(0);
  });
});

describe("first run", () => {
  it("a one-time setup link creates the first admin once", async () => {
    const { createSetupToken, setupTokenValid, completeSetup } = await import("./setup.ts");
    const token = await createSetupToken();
    // users exist in this store, so the link is not valid
    expect(await setupTokenValid(token)).toBe(false);
    await db.user.deleteMany({});
    const fresh = await createSetupToken();
    expect(await setupTokenValid(fresh)).toBe(true);
    expect(await setupTokenValid("guess")).toBe(false);
    const admin = await completeSetup(fresh, { email: "root@test.local", password: PASSWORD });
    expect(admin).toMatchObject({ email: "root@test.local", role: "admin" });
    expect(await completeSetup(fresh, { email: "two@test.local", password: PASSWORD })).toBeNull();
    expect(await db.user.count()).toBe(1);
  });
});
