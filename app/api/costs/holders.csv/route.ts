import { teamScope } from "@/lib/auth/scope.ts";
import { monthOf } from "@/lib/core/months.ts";
import { holderNamerFor } from "@/lib/settings/holder-names.ts";
import { getHolderSpend } from "@/lib/spend/by-holder.ts";
import { holderSpendCsv } from "@/lib/spend/holder-csv.ts";
import { monthQuerySchema } from "@/lib/zod/schemas/month.ts";
import { handle, parseQuery } from "../../_lib/handle.ts";

export const GET = handle("costs:read", async (req: Request, _ctx: unknown, actor) => {
  const { month = monthOf(new Date()) } = parseQuery(monthQuerySchema, req.url);
  const namer = await holderNamerFor(actor);
  const spend = await getHolderSpend(month, {
    scope: teamScope(actor),
    name: namer.person,
    pseudonymous: namer.pseudonymous,
  });
  return new Response(holderSpendCsv(spend), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="gpufleet-holders-${month}.csv"`,
      "cache-control": "no-store",
    },
  });
});
