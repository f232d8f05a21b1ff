import { deleteBenchmark } from "@/lib/benchmarks/manage.ts";
import { handle, json } from "../../_lib/handle.ts";
import type { IdCtx } from "../../_lib/http.ts";

/** Deletes a result a person added (shipped published figures are refused with 409). */
export const DELETE = handle("benchmarks:write", async (_req: Request, ctx: IdCtx) => {
  const { id } = await ctx.params;
  return json(await deleteBenchmark(id));
});
