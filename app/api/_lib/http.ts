import type { z } from "zod";
import { ConflictError, InvalidInputError } from "@/lib/core/errors.ts";
import type { Permission } from "@/lib/auth/roles.ts";
import {
  BadRequestError,
  handle,
  json,
  readLimitedText,
  rememberValidated,
  type AuthedHandler,
  type HandleOptions,
} from "./handle.ts";

// Shared by the alerts, recommendations, rules, budgets and channels routes: JSON bodies are
// validated with the entity's zod schema (400 with per-field issues), domain conflicts are 409.

export async function readBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
  const text = await readLimitedText(req);
  let raw: unknown = {};
  if (text.trim() !== "") {
    try {
      raw = JSON.parse(text);
    } catch {
      throw new BadRequestError("the request body is not valid JSON");
    }
  }
  const r = schema.safeParse(raw);
  if (r.success) {
    rememberValidated(req, r.data);
    return r.data;
  }
  const issues = r.error.issues.map((i) => ({
    path: i.path.map(String).join(".") || (i.code === "unrecognized_keys" ? i.keys.join(",") : ""),
    message: i.code === "unrecognized_keys" ? `unknown field(s): ${i.keys.join(", ")}` : i.message,
  }));
  const summary = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
  throw new BadRequestError(`invalid body: ${summary}`, issues);
}

export function handleMine<C>(
  permission: Permission,
  fn: AuthedHandler<C>,
  opts: HandleOptions = {},
): (req: Request, ctx: C) => Promise<Response> {
  return handle(
    permission,
    async (req, ctx, actor) => {
      try {
        return await fn(req, ctx, actor);
      } catch (e) {
        if (e instanceof InvalidInputError) throw new BadRequestError(e.message, e.issues);
        if (e instanceof ConflictError) return json({ error: e.message }, { status: 409 });
        throw e;
      }
    },
    opts,
  );
}

export type IdCtx = { params: Promise<{ id: string }> };

export function noContent(): Response {
  return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
}
