import { revokeApiToken } from "@/lib/auth/tokens.ts";
import { NotFoundError } from "@/lib/core/errors.ts";
import { handle, json } from "../../_lib/handle.ts";
import type { IdCtx } from "../../_lib/http.ts";

/** Revokes the token (kept, marked revoked, so the list shows who had what). */
export const DELETE = handle(
  "tokens:admin",
  async (_req: Request, ctx: IdCtx) => {
    const { id } = await ctx.params;
    const token = await revokeApiToken(id);
    if (!token) throw new NotFoundError(`token ${id}`);
    return json(token);
  },
  { audit: "tokens.revoke" },
);
