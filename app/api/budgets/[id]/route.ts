import { getBudget } from "@/lib/budgets/list-budgets.ts";
import { deleteBudget, updateBudget } from "@/lib/budgets/save-budget.ts";
import { budgetUpdateSchema } from "@/lib/zod/schemas/budget.ts";
import { json, noQuery, parseQuery } from "../../_lib/handle.ts";
import { handleMine, noContent, readBody, type IdCtx } from "../../alerts/_lib/http.ts";

export const GET = handleMine("costs:read", async (req: Request, ctx: IdCtx) => {
  parseQuery(noQuery, req.url);
  return json(await getBudget((await ctx.params).id));
});

export const PATCH = handleMine("budgets:write", async (req: Request, ctx: IdCtx) => {
  const patch = await readBody(req, budgetUpdateSchema);
  return json(await updateBudget((await ctx.params).id, patch));
});

export const DELETE = handleMine("budgets:write", async (_req: Request, ctx: IdCtx) => {
  await deleteBudget((await ctx.params).id);
  return noContent();
});
