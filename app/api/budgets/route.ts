import { listBudgets } from "@/lib/budgets/list-budgets.ts";
import { createBudget } from "@/lib/budgets/save-budget.ts";
import { budgetInputSchema } from "@/lib/zod/schemas/budget.ts";
import { json, noQuery, parseQuery } from "../_lib/handle.ts";
import { handleMine, readBody } from "../alerts/_lib/http.ts";

export const GET = handleMine("costs:read", async (req: Request) => {
  parseQuery(noQuery, req.url);
  return json(await listBudgets());
});

export const POST = handleMine("budgets:write", async (req: Request) => {
  const input = await readBody(req, budgetInputSchema);
  return json(await createBudget(input), { status: 201 });
});
