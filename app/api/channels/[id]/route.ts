import { getChannel } from "@/lib/notify/list-channels.ts";
import { deleteChannel, updateChannel } from "@/lib/notify/save-channel.ts";
import { channelUpdateSchema } from "@/lib/zod/schemas/channel.ts";
import { handle, json, noQuery, parseQuery } from "../../_lib/handle.ts";
import { noContent, readBody, type IdCtx } from "../../_lib/http.ts";

export const GET = handle("channels:read", async (req: Request, ctx: IdCtx) => {
  parseQuery(noQuery, req.url);
  return json(await getChannel((await ctx.params).id));
});

export const PATCH = handle("channels:write", async (req: Request, ctx: IdCtx) => {
  const patch = await readBody(req, channelUpdateSchema);
  return json(await updateChannel((await ctx.params).id, patch));
});

export const DELETE = handle("channels:write", async (_req: Request, ctx: IdCtx) => {
  await deleteChannel((await ctx.params).id);
  return noContent();
});
