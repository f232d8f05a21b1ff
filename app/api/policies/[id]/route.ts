import { actorLabel } from "@/lib/auth/actor.ts";
import { clientIp } from "@/lib/auth/audit.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import { deletePolicy, getPolicy, updatePolicy } from "@/lib/policies/store.ts";
import { policyUpdateSchema } from "@/lib/zod/schemas/policy.ts";
import { handle, json, noQuery, parseQuery } from "../../_lib/handle.ts";
import { noContent, type IdCtx } from "../../_lib/http.ts";
import { readJsonBody } from "../json-body.ts";

// One policy: read, change (including dry run ↔ active) and delete. Another team's policy does
// not exist for a team-limited admin (404). Changes are audited by the service.

export const GET = handle("policies:read", async (req: Request, ctx: IdCtx, actor) => {
  parseQuery(noQuery, req.url);
  return json(await getPolicy((await ctx.params).id, teamScope(actor)));
});

export const PATCH = handle(
  "policies:write",
  async (req: Request, ctx: IdCtx, actor) => {
    const { id } = await ctx.params;
    const patch = await readJsonBody(req, policyUpdateSchema);
    const audit = { actor: actorLabel(actor), ip: clientIp(req.headers) };
    return json(await updatePolicy(id, patch, teamScope(actor), audit));
  },
  { audit: false, maxBodyBytes: 16 * 1024 },
);

export const DELETE = handle(
  "policies:write",
  async (req: Request, ctx: IdCtx, actor) => {
    const { id } = await ctx.params;
    await deletePolicy(id, teamScope(actor), {
      actor: actorLabel(actor),
      ip: clientIp(req.headers),
    });
    return noContent();
  },
  { audit: false },
);
