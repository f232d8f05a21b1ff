import { budgetInScope, teamScope } from "@/lib/auth/scope.ts";
import { listBudgets } from "@/lib/budgets/list-budgets.ts";
import { createBudget } from "@/lib/budgets/save-budget.ts";
import { budgetInputSchema } from "@/lib/zod/schemas/budget.ts";
import { forbidden, handle, json, noQuery, parseQuery } from "../_lib/handle.ts";
import { readBody } from "../_lib/http.ts";

// A team-limited user sees and writes only the budgets of their own teams.

export const GET = handle("costs:read", async (req: Request, _ctx: unknown, actor) => {
  parseQuery(noQuery, req.url);
  const scope = teamScope(actor);
  const { budgets } = await listBudgets();
  return json({ budgets: budgets.filter((b) => budgetInScope(scope, b)) });
});

export const POST = handle("budgets:write", async (req: Request, _ctx: unknown, actor) => {
  const input = await readBody(req, budgetInputSchema);
  if (!budgetInScope(teamScope(actor), input)) {
    return forbidden("forbidden: you may only set budgets for your own teams");
  }
  return json(await createBudget(input), { status: 201 });
});
