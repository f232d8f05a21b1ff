import { openApiDocument } from "@/lib/openapi/openapi.ts";

export function GET(): Response {
  return Response.json(openApiDocument());
}
