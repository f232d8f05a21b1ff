import { getInstance } from "@/lib/fleet/get-instance.ts";
import { handle, json, noQuery, parseQuery } from "../../_lib/handle.ts";

type Ctx = { params: Promise<{ id: string }> };

export const GET = handle("fleet:read", async (req: Request, ctx: Ctx) => {
  parseQuery(noQuery, req.url);
  const { id } = await ctx.params;
  return json(await getInstance(id));
});
