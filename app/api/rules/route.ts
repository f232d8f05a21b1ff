import { teamScope } from "@/lib/auth/scope.ts";
import { listRules } from "@/lib/alerts/rules/list-rules.ts";
import { createRule } from "@/lib/alerts/rules/save-rule.ts";
import { ruleInputSchema } from "@/lib/zod/schemas/rule.ts";
import { handle, json, noQuery, parseQuery } from "../_lib/handle.ts";
import { readBody } from "../_lib/http.ts";

export const GET = handle("rules:read", async (req: Request, _ctx: unknown, actor) => {
  parseQuery(noQuery, req.url);
  return json(await listRules({ scope: teamScope(actor) }));
});

export const POST = handle("rules:write", async (req: Request) => {
  const input = await readBody(req, ruleInputSchema);
  return json(await createRule(input), { status: 201 });
});
