import { testChannel } from "@/lib/notify/test-channel.ts";
import { handle, json, noQuery, parseQuery } from "../../../_lib/handle.ts";
import { type IdCtx } from "../../../_lib/http.ts";

// Sends one test message now and reports what the receiver answered (200 even when it failed:
// the test ran; `ok` says how it went).
export const POST = handle("channels:write", async (req: Request, ctx: IdCtx) => {
  parseQuery(noQuery, req.url);
  return json(await testChannel((await ctx.params).id));
});
