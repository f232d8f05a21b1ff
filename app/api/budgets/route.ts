import { teamScope } from "@/lib/auth/scope.ts";
import { listBudgets } from "@/lib/budgets/list-budgets.ts";
import { createBudget } from "@/lib/budgets/save-budget.ts";
import { budgetInputSchema } from "@/lib/zod/schemas/budget.ts";
import { handle, json, noQuery, parseQuery } from "../_lib/handle.ts";
import { readBody } from "../_lib/http.ts";

// A team-limited user sees and writes only the budgets of their own teams (the services apply
// the scope they are given).

export const GET = handle("costs:read", async (req: Request, _ctx: unknown, actor) => {
  parseQuery(noQuery, req.url);
  return json(await listBudgets({ scope: teamScope(actor) }));
});

export const POST = handle("budgets:write", async (req: Request, _ctx: unknown, actor) => {
  const input = await readBody(req, budgetInputSchema);
  return json(await createBudget(input, teamScope(actor)), { status: 201 });
});
