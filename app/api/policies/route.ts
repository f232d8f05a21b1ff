import { actorLabel } from "@/lib/auth/actor.ts";
import { clientIp } from "@/lib/auth/audit.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import { createPolicy, listPolicies } from "@/lib/policies/store.ts";
import { policyInputSchema } from "@/lib/zod/schemas/policy.ts";
import { handle, json, noQuery, parseQuery } from "../_lib/handle.ts";
import { readJsonBody } from "./json-body.ts";

// Idle-release policies (issue 25). Admins create them, always in dry run; the service writes the
// audit entry in the same transaction as the change. A team-limited admin manages only policies
// scoped to one of their teams.

export const GET = handle("policies:read", async (req: Request, _ctx: unknown, actor) => {
  parseQuery(noQuery, req.url);
  return json(await listPolicies(teamScope(actor)));
});

export const POST = handle(
  "policies:write",
  async (req: Request, _ctx: unknown, actor) => {
    const input = await readJsonBody(req, policyInputSchema);
    const audit = { actor: actorLabel(actor), ip: clientIp(req.headers) };
    return json(await createPolicy(input, teamScope(actor), audit), { status: 201 });
  },
  { audit: false, maxBodyBytes: 16 * 1024 },
);
