import type { z } from "zod";
import { BadRequestError, readLimitedText, rememberValidated } from "./handle.ts";

// Request bodies and empty answers for every route: JSON bodies are validated with the entity's
// zod schema (400 with per-field issues). Domain errors map to statuses in errors.ts.

export async function readBody<S extends z.ZodType>(
  req: Request,
  schema: S,
  limit?: number,
): Promise<z.output<S>> {
  const text = await readLimitedText(req, limit);
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

export type IdCtx = { params: Promise<{ id: string }> };

export function noContent(): Response {
  return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
}
