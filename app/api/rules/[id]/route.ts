import { teamScope } from "@/lib/auth/scope.ts";
import { getRule } from "@/lib/alerts/rules/list-rules.ts";
import { deleteRule, updateRule } from "@/lib/alerts/rules/save-rule.ts";
import { ruleUpdateSchema } from "@/lib/zod/schemas/rule.ts";
import { handle, json, noQuery, parseQuery } from "../../_lib/handle.ts";
import { noContent, readBody, type IdCtx } from "../../_lib/http.ts";

export const GET = handle("rules:read", async (req: Request, ctx: IdCtx, actor) => {
  parseQuery(noQuery, req.url);
  return json(await getRule((await ctx.params).id, { scope: teamScope(actor) }));
});

export const PATCH = handle("rules:write", async (req: Request, ctx: IdCtx) => {
  const patch = await readBody(req, ruleUpdateSchema);
  return json(await updateRule((await ctx.params).id, patch));
});

export const DELETE = handle("rules:write", async (_req: Request, ctx: IdCtx) => {
  await deleteRule((await ctx.params).id);
  return noContent();
});
