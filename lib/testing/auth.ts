// Signing in inside tests: creates a user with a role and signs in through better-auth's real
// endpoint, so route tests carry the same cookie a browser would.
import { randomUUID } from "node:crypto";
import { getAuth, publicOrigin } from "@/lib/auth/auth.ts";
import type { Role } from "@/lib/auth/roles.ts";
import { createUser } from "@/lib/auth/users.ts";

export const TEST_PASSWORD = "test-password-123";

export type TestSession = { email: string; cookie: string; origin: string };

/** Signs `email` in with `password`; the cookie header to send, or the failed response. */
export async function signIn(email: string, password: string): Promise<Response> {
  const auth = await getAuth();
  return auth.handler(
    new Request(`${publicOrigin()}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: publicOrigin() },
      body: JSON.stringify({ email, password }),
    }),
  );
}

export function cookieFrom(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .filter((c) => c.includes("session_token="))
    .join("; ");
}

export async function sessionFor(
  role: Role,
  email = `${role}-${randomUUID()}@test.local`,
): Promise<TestSession> {
  await createUser({ email, password: TEST_PASSWORD, role });
  const res = await signIn(email, TEST_PASSWORD);
  if (!res.ok) throw new Error(`test sign-in failed: ${res.status} ${await res.text()}`);
  const cookie = cookieFrom(res);
  if (!cookie) throw new Error("test sign-in set no session cookie");
  return { email, cookie, origin: publicOrigin() };
}

/** The request with the session's cookie and the app's Origin (as the app's own pages send). */
export function withSession(req: Request, s: TestSession): Request {
  const headers = new Headers(req.headers);
  headers.set("cookie", s.cookie);
  headers.set("origin", s.origin);
  return new Request(req, { headers });
}

type Handler = (req: Request, ctx: never) => Promise<Response>;

/** A route module whose handlers all run as the session's user. */
export function asUser<M extends Record<string, unknown>>(mod: M, s: TestSession): M {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(mod)) {
    out[k] =
      typeof v === "function" && /^(GET|POST|PUT|PATCH|DELETE)$/.test(k)
        ? (req: Request, ctx: never) => (v as Handler)(withSession(req, s), ctx)
        : v;
  }
  return out as M;
}

/**
 * Refused sign-ins are counted in fixed 15-minute windows (lib/auth/audit-count.ts). A test that
 * expects one counted row must not straddle a window's edge, or its failures land in two rows:
 * when the next edge is closer than `needMs`, wait until it has passed.
 */
export async function clearOfCountWindowEdge(needMs = 20_000): Promise<void> {
  const { COUNT_WINDOW_MS } = await import("@/lib/auth/audit-count.ts");
  const untilEdge = COUNT_WINDOW_MS - (Date.now() % COUNT_WINDOW_MS);
  if (untilEdge < needMs) await new Promise((r) => setTimeout(r, untilEdge + 50));
}
