import { teamScope } from "@/lib/auth/scope.ts";
import { getInstance } from "@/lib/fleet/get-instance.ts";
import { holderNamerFor } from "@/lib/settings/holder-names.ts";
import { handle, json, noQuery, parseQuery } from "../../_lib/handle.ts";

type Ctx = { params: Promise<{ id: string }> };

export const GET = handle("fleet:read", async (req: Request, ctx: Ctx, actor) => {
  parseQuery(noQuery, req.url);
  const { id } = await ctx.params;
  // holders are personal data: within the team scope only, pseudonyms for viewers if set
  const namer = await holderNamerFor(actor);
  return json(await getInstance(id, { scope: teamScope(actor) }, namer.holder));
});
