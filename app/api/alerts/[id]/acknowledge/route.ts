import { acknowledgeAlert } from "@/lib/alerts/act-on-alert.ts";
import { actingUser } from "@/lib/alerts/acting-user.ts";
import { getAlert } from "@/lib/alerts/get-alert.ts";
import { acknowledgeInputSchema } from "@/lib/zod/schemas/alert.ts";
import { json } from "../../../_lib/handle.ts";
import { handleMine, readBody, type IdCtx } from "../../_lib/http.ts";

export const POST = handleMine(async (req: Request, ctx: IdCtx) => {
  const { id } = await ctx.params;
  const { note } = await readBody(req, acknowledgeInputSchema);
  await acknowledgeAlert(id, actingUser(req), note);
  return json(await getAlert(id));
});
