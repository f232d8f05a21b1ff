import { teamScope } from "@/lib/auth/scope.ts";
import { monthOf } from "@/lib/core/months.ts";
import { holderNamerFor } from "@/lib/settings/holder-names.ts";
import { getHolderSpend } from "@/lib/spend/by-holder.ts";
import { monthQuerySchema } from "@/lib/zod/schemas/month.ts";
import { handle, json, parseQuery } from "../../_lib/handle.ts";

// Spend and idle spend by holder (issue 24): the viewer's team scope only, named for the viewer.
export const GET = handle("costs:read", async (req: Request, _ctx: unknown, actor) => {
  const { month = monthOf(new Date()) } = parseQuery(monthQuerySchema, req.url);
  const namer = await holderNamerFor(actor);
  return json(
    await getHolderSpend(month, {
      scope: teamScope(actor),
      name: namer.person,
      pseudonymous: namer.pseudonymous,
    }),
  );
});
