import { actorLabel } from "@/lib/auth/actor.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import { createTrial, listTrials } from "@/lib/work/trials.ts";
import { trialInputSchema, trialQuerySchema } from "@/lib/work/trial-schema.ts";
import { handle, json, parseQuery } from "../../_lib/handle.ts";
import { readBody } from "../../_lib/http.ts";

/** Trial rentals of the caller's teams' hosts (one host's with ?host=), with their reports. */
export const GET = handle("costs:read", async (req: Request, _ctx: unknown, actor) => {
  const { host } = parseQuery(trialQuerySchema, req.url);
  return json({ trials: await listTrials(teamScope(actor), host) });
});

/** Marks a host of the caller's teams as a trial for the next `hours`; audited. */
export const POST = handle(
  "benchmarks:write",
  async (req: Request, _ctx: unknown, actor) => {
    const input = await readBody(req, trialInputSchema);
    const trial = await createTrial(
      { ...input, by: actorLabel(actor), now: new Date(), origin: "page" },
      teamScope(actor),
    );
    return json(trial, { status: 201 });
  },
  { audit: "trials.create" },
);
