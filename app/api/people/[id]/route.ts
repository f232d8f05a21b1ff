import { NotFoundError } from "@/lib/core/errors.ts";
import { deletePerson } from "@/lib/people/directory.ts";
import { handle, noQuery, parseQuery } from "../../_lib/handle.ts";
import { noContent, type IdCtx } from "../../_lib/http.ts";

export const DELETE = handle("settings:write", async (req: Request, ctx: IdCtx) => {
  parseQuery(noQuery, req.url);
  const { id } = await ctx.params;
  if (!(await deletePerson(id))) throw new NotFoundError(`directory entry ${id}`);
  return noContent();
});
