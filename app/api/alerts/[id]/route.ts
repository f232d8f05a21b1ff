import { teamScope } from "@/lib/auth/scope.ts";
import { getAlert } from "@/lib/alerts/get-alert.ts";
import { holderNamerFor } from "@/lib/settings/holder-names.ts";
import { handle, json, noQuery, parseQuery } from "../../_lib/handle.ts";
import { type IdCtx } from "../../_lib/http.ts";

export const GET = handle("alerts:read", async (req: Request, ctx: IdCtx, actor) => {
  parseQuery(noQuery, req.url);
  const { id } = await ctx.params;
  // the person an idle alert went to is personal data: a pseudonym for viewers when set
  const namer = await holderNamerFor(actor);
  return json(await getAlert(id, { scope: teamScope(actor), person: namer.person }));
});
