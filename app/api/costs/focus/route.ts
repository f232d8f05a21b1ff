import { teamScope } from "@/lib/auth/scope.ts";
import { exportFocus } from "@/lib/focus/export-focus.ts";
import { focusQuerySchema } from "@/lib/focus/query.ts";
import { handle, parseQuery } from "../../_lib/handle.ts";

// FOCUS 1.2 export of the cost ledger (CSV or Parquet), streamed; who may call it and what a
// team-limited user sees are exactly as for /api/costs/export.csv.
export const GET = handle("costs:read", async (req: Request, _ctx: unknown, actor) => {
  const q = parseQuery(focusQuerySchema, req.url);
  const file = await exportFocus(q, { scope: teamScope(actor) });
  return new Response(file.body, {
    headers: {
      "content-type": file.contentType,
      "content-disposition": `attachment; filename="${file.fileName}"`,
      "cache-control": "no-store",
      // unpriced hours have no cost FOCUS can carry: left out, and said so here
      "x-gpufleet-unpriced-host-hours": String(file.unpriced.hostHours),
      "x-gpufleet-unpriced-up-seconds": String(file.unpriced.upSeconds),
    },
  });
});
