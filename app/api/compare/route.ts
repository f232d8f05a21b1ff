import { teamScope } from "@/lib/auth/scope.ts";
import { getCompare } from "@/lib/compare/get-compare.ts";
import { compareQuerySchema } from "@/lib/compare/schema.ts";
import { monthOf } from "@/lib/core/months.ts";
import { handle, json, parseQuery } from "../_lib/handle.ts";

/** The cross-cloud comparison (operator and finance); the re-priced month counts only the
 * caller's teams' hosts. */
export const GET = handle("compare:read", async (req: Request, _ctx: unknown, actor) => {
  const { month } = parseQuery(compareQuerySchema, req.url);
  return json(await getCompare(month ?? monthOf(new Date()), { scope: teamScope(actor) }));
});
