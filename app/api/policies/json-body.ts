import type { z } from "zod";
import { readBody } from "../_lib/http.ts";
import { requireMediaType } from "../_lib/media-type.ts";

/** The policies' routes take JSON only: another content type is refused (415) before parsing. */
export async function readJsonBody<S extends z.ZodType>(
  req: Request,
  schema: S,
  limit?: number,
): Promise<z.output<S>> {
  requireMediaType(req, ["application/json"], "send the body as application/json");
  return readBody(req, schema, limit);
}
