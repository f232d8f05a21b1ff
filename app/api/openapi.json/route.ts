import { openApiDocument } from "@/lib/zod/openapi.ts";

export function GET(): Response {
  return Response.json(openApiDocument());
}
