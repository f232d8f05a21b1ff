import { budgetInScope, teamScope, type TeamScope } from "@/lib/auth/scope.ts";
import { getBudget } from "@/lib/budgets/list-budgets.ts";
import { deleteBudget, updateBudget } from "@/lib/budgets/save-budget.ts";
import { NotFoundError } from "@/lib/core/errors.ts";
import { budgetUpdateSchema, type BudgetDto } from "@/lib/zod/schemas/budget.ts";
import { forbidden, handle, json, noQuery, parseQuery } from "../../_lib/handle.ts";
import { noContent, readBody, type IdCtx } from "../../_lib/http.ts";

// Another team's budget does not exist for a team-limited user (404); moving one of theirs to a
// scope outside their teams is refused (403).

async function visibleBudget(id: string, scope: TeamScope): Promise<BudgetDto> {
  const budget = await getBudget(id);
  if (!budgetInScope(scope, budget)) throw new NotFoundError(`budget ${id}`);
  return budget;
}

/** For a limited user, a change must leave the budget within their teams; true when it does. */
async function mayChange(
  id: string,
  scope: TeamScope,
  patch: { scopeKind?: string; scopeValue?: string } = {},
): Promise<boolean> {
  if (scope === null) return true;
  const current = await visibleBudget(id, scope);
  return budgetInScope(scope, {
    scopeKind: patch.scopeKind ?? current.scopeKind,
    scopeValue: patch.scopeValue?.trim() ?? current.scopeValue,
  });
}

export const GET = handle("costs:read", async (req: Request, ctx: IdCtx, actor) => {
  parseQuery(noQuery, req.url);
  return json(await visibleBudget((await ctx.params).id, teamScope(actor)));
});

export const PATCH = handle("budgets:write", async (req: Request, ctx: IdCtx, actor) => {
  const { id } = await ctx.params;
  const patch = await readBody(req, budgetUpdateSchema);
  if (!(await mayChange(id, teamScope(actor), patch))) {
    return forbidden("forbidden: you may only set budgets for your own teams");
  }
  return json(await updateBudget(id, patch));
});

export const DELETE = handle("budgets:write", async (_req: Request, ctx: IdCtx, actor) => {
  const { id } = await ctx.params;
  await mayChange(id, teamScope(actor));
  await deleteBudget(id);
  return noContent();
});
