import { resolveAlert } from "@/lib/alerts/act-on-alert.ts";
import { actorLabel } from "@/lib/auth/actor.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import { alertInScope, getAlert } from "@/lib/alerts/get-alert.ts";
import { resolveInputSchema } from "@/lib/zod/schemas/alert.ts";
import { handle, json } from "../../../_lib/handle.ts";
import { readBody, type IdCtx } from "../../../_lib/http.ts";

export const POST = handle("alerts:act", async (req: Request, ctx: IdCtx, actor) => {
  const { id } = await ctx.params;
  const scope = teamScope(actor);
  const checked = await alertInScope(id, scope);
  const { note } = await readBody(req, resolveInputSchema);
  await resolveAlert(checked, actorLabel(actor), note);
  return json(await getAlert(id, { scope }));
});
