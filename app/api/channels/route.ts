import { listChannels } from "@/lib/notify/list-channels.ts";
import { createChannel } from "@/lib/notify/save-channel.ts";
import { channelInputSchema } from "@/lib/zod/schemas/channel.ts";
import { handle, json, noQuery, parseQuery } from "../_lib/handle.ts";
import { readBody } from "../_lib/http.ts";

export const GET = handle("channels:read", async (req: Request) => {
  parseQuery(noQuery, req.url);
  return json(await listChannels());
});

export const POST = handle("channels:write", async (req: Request) => {
  const input = await readBody(req, channelInputSchema);
  return json(await createChannel(input), { status: 201 });
});
