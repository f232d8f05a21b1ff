import { ForbiddenError } from "@/lib/core/errors.ts";
import { getMetricsSource } from "@/lib/metrics/index.ts";
import { myGpus } from "@/lib/people/my-gpus.ts";
import { handle, json, noQuery, parseQuery } from "../../_lib/handle.ts";

// "My GPUs" (issue 24): what the signed-in person holds now, through the people directory.
export const GET = handle("fleet:read", async (req: Request, _ctx: unknown, actor) => {
  parseQuery(noQuery, req.url);
  if (actor.kind !== "user")
    throw new ForbiddenError("my GPUs are a signed-in person's, not a token's");
  return json(await myGpus(actor.email, { source: getMetricsSource() }));
});
