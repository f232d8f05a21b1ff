import { actorLabel } from "@/lib/auth/actor.ts";
import { createApiToken, listApiTokens } from "@/lib/auth/tokens.ts";
import { createTokenSchema } from "@/lib/zod/schemas/admin.ts";
import { handle, json, noQuery, parseQuery } from "../_lib/handle.ts";
import { readBody } from "../_lib/http.ts";

export const GET = handle("tokens:admin", async (req: Request) => {
  parseQuery(noQuery, req.url);
  return json({ tokens: await listApiTokens() });
});

/** The token itself is in this one response only; the store keeps its hash. */
export const POST = handle("tokens:admin", async (req: Request, _ctx: unknown, actor) => {
  const input = await readBody(req, createTokenSchema);
  const { token, view } = await createApiToken({ ...input, createdBy: actorLabel(actor) });
  return json({ ...view, token }, { status: 201 });
});
