import "server-only";
import { randomBytes } from "node:crypto";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { nextCookies } from "better-auth/next-js";
import { SIGN_IN_MAX_PER_ADDRESS } from "@/lib/auth/ip-limit.ts";
import { db } from "@/lib/db.ts";
import { isPostgresUrl } from "@/lib/db-url.ts";
import { env } from "@/lib/env.ts";

// Sign-in is better-auth (email and password, scrypt hashes, sessions in the store, httpOnly
// SameSite=Lax cookies that are Secure when the public URL is https). We chose it over writing
// our own because it is maintained, audited by many users, and already does the cookie signing,
// session rotation and origin checks; gpufleet adds roles, failure throttling and tokens around it.

export const SESSION_DAYS = 7;
const SECRET_KEY = "auth.secret";

/** The origin people use to reach the app. */
export function publicOrigin(): string {
  return env.GPUFLEET_PUBLIC_URL
    ? new URL(env.GPUFLEET_PUBLIC_URL).origin
    : `http://127.0.0.1:${env.PORT}`;
}

/** The origins a browser may post from: the public one, and loopback on the app's port. */
export function trustedOrigins(): string[] {
  return [
    ...new Set([publicOrigin(), `http://127.0.0.1:${env.PORT}`, `http://localhost:${env.PORT}`]),
  ];
}

/** The cookie-signing secret: the environment's, else one generated once and kept in the store
 * (so every replica on one database signs alike). */
async function authSecret(): Promise<string> {
  if (env.GPUFLEET_AUTH_SECRET) return env.GPUFLEET_AUTH_SECRET;
  const existing = await db.appSetting.findUnique({ where: { key: SECRET_KEY } });
  if (existing) return existing.value;
  try {
    await db.appSetting.create({
      data: { key: SECRET_KEY, value: randomBytes(32).toString("base64url") },
    });
  } catch {
    // another replica created it first: fall through and read theirs
  }
  const row = await db.appSetting.findUniqueOrThrow({ where: { key: SECRET_KEY } });
  return row.value;
}

function build(secret: string) {
  return betterAuth({
    appName: "gpufleet",
    secret,
    baseURL: publicOrigin(),
    // plus the request's own host: behind a proxy or a second published port, a page posting to
    // the host it was served from is same-origin (the CSRF check in handle() reasons alike)
    trustedOrigins: (request) => {
      const host = request?.headers.get("host");
      return host ? [...trustedOrigins(), `http://${host}`, `https://${host}`] : trustedOrigins();
    },
    database: prismaAdapter(db, {
      provider: isPostgresUrl(env.DATABASE_URL) ? "postgresql" : "sqlite",
    }),
    emailAndPassword: {
      enabled: true,
      // accounts are made by an admin (or the first-run path), never by signing up
      disableSignUp: true,
      minPasswordLength: 12,
      maxPasswordLength: 256,
      autoSignIn: false,
    },
    session: { expiresIn: SESSION_DAYS * 24 * 3600, updateAge: 24 * 3600 },
    user: {
      additionalFields: {
        role: { type: "string", required: false, defaultValue: "viewer", input: false },
        teams: { type: "string", required: false, defaultValue: "[]", input: false },
      },
    },
    advanced: {
      cookiePrefix: "gpufleet",
      useSecureCookies: publicOrigin().startsWith("https:"),
    },
    // per-IP request limits on the auth endpoints. Sign-in is limited per address before it
    // gets here (lib/auth/ip-limit.ts, which writes nothing for a refused request); the rule here
    // is a looser backstop so that it never refuses, after the fact, an attempt already counted.
    // Failed sign-ins are also counted per email by lib/auth/throttle.ts.
    rateLimit: {
      enabled: true,
      window: 60,
      max: 600,
      customRules: { "/sign-in/email": { window: 60, max: 2 * SIGN_IN_MAX_PER_ADDRESS } },
    },
    telemetry: { enabled: false },
    plugins: [nextCookies()],
  });
}

export type Auth = ReturnType<typeof build>;

const globalForAuth = globalThis as unknown as { gpufleetAuth?: Promise<Auth> };

export function getAuth(): Promise<Auth> {
  globalForAuth.gpufleetAuth ??= authSecret().then(build);
  globalForAuth.gpufleetAuth.catch(() => {
    globalForAuth.gpufleetAuth = undefined;
  });
  return globalForAuth.gpufleetAuth;
}
