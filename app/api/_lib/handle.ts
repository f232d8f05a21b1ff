import { z } from "zod";
import { authenticate, actorAllows, actorLabel, type Actor } from "@/lib/auth/actor.ts";
import { clientIp, recordAudit } from "@/lib/auth/audit.ts";
import { crossSiteReason, isSafeMethod } from "@/lib/auth/csrf.ts";
import type { Permission } from "@/lib/auth/roles.ts";
import { apiError, BadRequestError, errorResponse, PayloadTooLargeError } from "./errors.ts";

// Every API route goes through `handle`: who may call it (a session or API token holding the
// route's permission, else 401/403), cross-site refusal for cookie-authenticated changes, the audit
// entry for every change, query validation, and errors answered through the one table in
// errors.ts, so routes stay a parse-call-respond triple.

export { apiError, BadRequestError, errorResponse, PayloadTooLargeError } from "./errors.ts";

/** Bodies larger than this are refused with a 413 before they are parsed. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The body as text, read no further than `limit` bytes (a 413 past it, even without a length). */
export async function readLimitedText(req: Request, limit = MAX_BODY_BYTES): Promise<string> {
  return (await readLimitedBytes(req, limit)).toString("utf8");
}

/** The body's bytes, read no further than `limit` (a 413 past it, even without a length). */
export async function readLimitedBytes(req: Request, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw new PayloadTooLargeError(limit);
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new PayloadTooLargeError(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

// What a change route validated, kept per request for its audit entry: the audit log records the
// fields the route accepted, never the raw body (which may be junk the route ignored).
const validatedBodies = new WeakMap<Request, unknown>();

export function rememberValidated(req: Request, value: unknown): void {
  validatedBodies.set(req, value);
}

/** Validates the URL's query string; unknown or malformed parameters become a 400. */
export function parseQuery<S extends z.ZodType>(schema: S, url: string): z.output<S> {
  const params = new URL(url).searchParams;
  const raw: Record<string, string> = {};
  for (const key of params.keys()) {
    const values = params.getAll(key);
    if (values.length > 1) throw new BadRequestError(`parameter "${key}" given more than once`);
    raw[key] = values[0] ?? "";
  }
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({
    path: i.path.map(String).join(".") || (i.code === "unrecognized_keys" ? i.keys.join(",") : ""),
    message: i.message,
  }));
  const summary = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
  throw new BadRequestError(`invalid query: ${summary}`, issues);
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  return Response.json(body, {
    ...init,
    headers: { "cache-control": "no-store", ...init.headers },
  });
}

type Handler<C> = (req: Request, ctx: C) => Promise<Response>;
export type AuthedHandler<C> = (req: Request, ctx: C, actor: Actor) => Promise<Response>;

export type HandleOptions = {
  /** the audit action for a change; derived from the path when omitted; false: the handler
   * records its own, more detailed entry */
  audit?: string | false;
  /** the largest body the route accepts (default MAX_BODY_BYTES); a larger declared length is
   * refused with a 413 before the route runs, whether or not it reads the body */
  maxBodyBytes?: number;
};

const VERBS: Record<string, string> = {
  POST: "create",
  PUT: "update",
  PATCH: "update",
  DELETE: "delete",
};
const SECRET_KEY = /url|password|token|secret|authorization/i;

/** A validated body as recorded in the audit log, with secret-looking fields masked. */
function auditBody(value: unknown): unknown {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "bigint" ? v.toString() : v,
  );
  return JSON.parse(text, (key, v: unknown) =>
    key !== "" && SECRET_KEY.test(key) ? "[redacted]" : v,
  ) as unknown;
}

async function routeId<C>(ctx: C): Promise<string | undefined> {
  const params = (ctx as { params?: Promise<Record<string, string | string[]>> } | undefined)
    ?.params;
  const id = params ? (await params).id : undefined;
  return typeof id === "string" ? id : undefined;
}

/** "POST /api/alerts/a1/acknowledge" → "alerts.acknowledge"; "PATCH /api/budgets/b1" → "budgets.update". */
export function auditAction(method: string, pathname: string, id: string | undefined): string {
  const segments = pathname
    .split("/")
    .filter(Boolean)
    .slice(1)
    .map((s) => decodeURIComponent(s))
    .filter((s) => s !== id);
  const verb = VERBS[method.toUpperCase()] ?? method.toLowerCase();
  return segments.length >= 2 ? segments.join(".") : `${segments[0] ?? "api"}.${verb}`;
}

export function unauthorized(): Response {
  return apiError(
    401,
    "unauthorized",
    "sign in required (a session cookie or an Authorization: Bearer token)",
    { headers: { "www-authenticate": 'Bearer realm="gpufleet"' } },
  );
}

export function forbidden(message: string): Response {
  return apiError(403, "forbidden", message);
}

/** A route that anyone holding `permission` may call. */
export function handle<C>(
  permission: Permission,
  fn: AuthedHandler<C>,
  opts: HandleOptions = {},
): Handler<C> {
  return handlePublic(async (req, ctx) => {
    const actor = await authenticate(req.headers);
    if (!actor) return unauthorized();
    if (!actorAllows(actor, permission)) {
      const who = actor.kind === "user" ? `the ${actor.role} role` : `a ${actor.scope} token`;
      return forbidden(`forbidden: ${who} does not allow ${permission}`);
    }
    if (isSafeMethod(req.method)) return await fn(req, ctx, actor);
    if (actor.kind === "user") {
      const why = crossSiteReason(req);
      if (why) return forbidden(why);
    }
    const limit = opts.maxBodyBytes ?? MAX_BODY_BYTES;
    if (Number(req.headers.get("content-length") ?? "0") > limit) {
      throw new PayloadTooLargeError(limit);
    }
    const res = await fn(req, ctx, actor);
    if (res.ok && opts.audit !== false) {
      const body = auditBody(validatedBodies.get(req));
      const url = new URL(req.url);
      const id = await routeId(ctx);
      await recordAudit({
        actor: actorLabel(actor),
        action: opts.audit ?? auditAction(req.method, url.pathname, id),
        target: id ?? url.pathname,
        detail: body === undefined ? {} : { body },
        ip: clientIp(req.headers),
      }).catch((e: unknown) =>
        console.error("[audit] could not record", req.method, url.pathname, e),
      );
    }
    return res;
  });
}

/** A route anyone may call without signing in (health, the sign-in endpoints). */
export function handlePublic<C>(fn: Handler<C>): Handler<C> {
  return async (req, ctx) => {
    try {
      return await fn(req, ctx);
    } catch (e) {
      return errorResponse(e);
    }
  };
}

export const noQuery = z.strictObject({});
