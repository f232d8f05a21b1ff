import type { z } from "zod";
import { UnsupportedMediaTypeError } from "../_lib/errors.ts";
import { readBody } from "../_lib/http.ts";

/** The policies' routes take JSON only: another content type is refused (415) before parsing. */
export async function readJsonBody<S extends z.ZodType>(
  req: Request,
  schema: S,
  limit?: number,
): Promise<z.output<S>> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") {
    throw new UnsupportedMediaTypeError("send the body as application/json");
  }
  return readBody(req, schema, limit);
}
