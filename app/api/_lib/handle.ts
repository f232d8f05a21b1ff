import { z } from "zod";
import { NotFoundError, SourceUnavailableError } from "@/lib/fleet/errors.ts";
import type { ApiError } from "@/lib/zod/schemas/common.ts";

// Every API route goes through `handle`: query validation and error → status mapping live here,
// in one place, so routes stay a parse-call-respond triple.

export class BadRequestError extends Error {
  constructor(
    message: string,
    readonly issues: ApiError["issues"] = undefined,
  ) {
    super(message);
    this.name = "BadRequestError";
  }
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

function errorBody(error: string, issues?: ApiError["issues"]): ApiError {
  return issues ? { error, issues } : { error };
}

export function errorResponse(e: unknown): Response {
  if (e instanceof BadRequestError) return json(errorBody(e.message, e.issues), { status: 400 });
  if (e instanceof NotFoundError) return json(errorBody(e.message), { status: 404 });
  if (e instanceof SourceUnavailableError) return json(errorBody(e.message), { status: 503 });
  console.error("[api]", e);
  const message = e instanceof Error ? e.message : String(e);
  return json(errorBody(`internal error: ${message}`), { status: 500 });
}

type Handler<C> = (req: Request, ctx: C) => Promise<Response>;

export function handle<C>(fn: Handler<C>): Handler<C> {
  return async (req, ctx) => {
    try {
      return await fn(req, ctx);
    } catch (e) {
      return errorResponse(e);
    }
  };
}

export const noQuery = z.strictObject({});
