import { actorLabel } from "@/lib/auth/actor.ts";
import { clientIp } from "@/lib/auth/audit.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import { startStoppedHost } from "@/lib/policies/start-host.ts";
import { handle, json } from "../../../../_lib/handle.ts";
import type { IdCtx } from "../../../../_lib/http.ts";

// Start again a host an idle-release policy stopped on the simulated cloud (admin; audited by
// the service). 409 when the host was not stopped that way.

export const POST = handle(
  "policies:write",
  async (req: Request, ctx: IdCtx, actor) => {
    const { id } = await ctx.params;
    const audit = { actor: actorLabel(actor), ip: clientIp(req.headers) };
    return json(await startStoppedHost(id, teamScope(actor), audit));
  },
  { audit: false, maxBodyBytes: 1024 },
);
