import "server-only";
import { getAuth } from "./auth.ts";
import { isRole, roleAllows, tokenAllows, type Permission, type Role } from "./roles.ts";
import { verifyApiToken, type TokenActor } from "./tokens.ts";

export type { TokenActor };

// Who is asking: a signed-in person (session cookie) or a script (Authorization: Bearer token).

export type UserActor = {
  kind: "user";
  id: string;
  email: string;
  name: string;
  role: Role;
  /** teams the user is limited to; empty means every team */
  teams: string[];
};
export type Actor = UserActor | TokenActor;

export function actorLabel(actor: Actor): string {
  return actor.kind === "user" ? actor.email : `token:${actor.name}`;
}

export function actorAllows(actor: Actor, permission: Permission): boolean {
  return actor.kind === "user"
    ? roleAllows(actor.role, permission)
    : tokenAllows(actor.scope, permission);
}

export function parseTeams(text: string): string[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === "string") : [];
  } catch {
    return [];
  }
}

export function toUserActor(user: {
  id: string;
  email: string;
  name: string;
  role?: string | null;
  teams?: string | null;
}): UserActor {
  return {
    kind: "user",
    id: user.id,
    email: user.email,
    name: user.name,
    // an unknown role in the store grants the least, never more
    role: isRole(user.role) ? user.role : "viewer",
    teams: parseTeams(user.teams ?? "[]"),
  };
}

/** The actor behind a request, or null when it carries no valid session or token. */
export async function authenticate(headers: Headers): Promise<Actor | null> {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return m?.[1] ? verifyApiToken(m[1]) : null;
  }
  return sessionUser(headers);
}

/** The signed-in user behind a request's session cookie (pages and API alike), or null. */
export async function sessionUser(headers: Headers): Promise<UserActor | null> {
  const cookie = headers.get("cookie") ?? "";
  if (!cookie.includes("session_token=")) return null;
  const now = Date.now();
  const hit = sessionCache.get(cookie);
  if (hit && hit.until > now) return hit.actor;
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers });
  const actor = session ? toUserActor(session.user) : null;
  if (sessionCache.size >= SESSION_CACHE_MAX) sessionCache.clear();
  sessionCache.set(cookie, { actor, until: now + SESSION_CACHE_MS });
  return actor;
}

// A dashboard polls several APIs every 15 s with the same cookie: the session's user is
// remembered for one poll interval per process, so its requests do not each wait on the store
// (under load, behind the collector's write transactions). A sign-out or a user change on this
// replica forgets them at once; on another replica it takes effect within SESSION_CACHE_MS.
const SESSION_CACHE_MS = 15_000;
const SESSION_CACHE_MAX = 10_000;
const sessionCache = new Map<string, { actor: UserActor | null; until: number }>();

/** Forgets cached sessions (after a sign-out or a change to users). */
export function forgetSessions(): void {
  sessionCache.clear();
}
