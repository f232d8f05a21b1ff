import { resolveAlert } from "@/lib/alerts/act-on-alert.ts";
import { actingUser } from "@/lib/alerts/acting-user.ts";
import { getAlert } from "@/lib/alerts/get-alert.ts";
import { resolveInputSchema } from "@/lib/zod/schemas/alert.ts";
import { json } from "../../../_lib/handle.ts";
import { handleMine, readBody, type IdCtx } from "../../_lib/http.ts";

export const POST = handleMine(async (req: Request, ctx: IdCtx) => {
  const { id } = await ctx.params;
  const { note } = await readBody(req, resolveInputSchema);
  await resolveAlert(id, actingUser(req), note);
  return json(await getAlert(id));
});
