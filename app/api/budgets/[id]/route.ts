import { teamScope } from "@/lib/auth/scope.ts";
import { getBudget } from "@/lib/budgets/list-budgets.ts";
import { deleteBudget, updateBudget } from "@/lib/budgets/save-budget.ts";
import { budgetUpdateSchema } from "@/lib/zod/schemas/budget.ts";
import { handle, json, noQuery, parseQuery } from "../../_lib/handle.ts";
import { noContent, readBody, type IdCtx } from "../../_lib/http.ts";

// Another team's budget does not exist for a team-limited user (404); moving one of theirs to a
// scope outside their teams is refused (403). The services apply the scope they are given.

export const GET = handle("costs:read", async (req: Request, ctx: IdCtx, actor) => {
  parseQuery(noQuery, req.url);
  return json(await getBudget((await ctx.params).id, { scope: teamScope(actor) }));
});

export const PATCH = handle("budgets:write", async (req: Request, ctx: IdCtx, actor) => {
  const { id } = await ctx.params;
  const patch = await readBody(req, budgetUpdateSchema);
  return json(await updateBudget(id, patch, teamScope(actor)));
});

export const DELETE = handle("budgets:write", async (_req: Request, ctx: IdCtx, actor) => {
  const { id } = await ctx.params;
  await deleteBudget(id, teamScope(actor));
  return noContent();
});
