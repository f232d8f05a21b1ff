import { clientIp } from "@/lib/auth/audit.ts";
import { AddressLimiter } from "@/lib/auth/ip-limit.ts";
import { redeemKeepLinkNow } from "@/lib/policies/keep.ts";
import { keepInputSchema } from "@/lib/zod/schemas/policy.ts";
import { apiError } from "../../_lib/errors.ts";
import { handlePublic, json } from "../../_lib/handle.ts";
import { readJsonBody } from "../json-body.ts";

// A keep link, redeemed without signing in (the link itself is the credential: signed, single
// use, bound to one host and episode, expiring). Counted per client address before anything is
// read from the store; every refusal answers the same 404, so a guess learns nothing. The
// service writes the audit entry.

const limiter = new AddressLimiter(30, 60_000);
const MAX_BODY = 1024;

export const POST = handlePublic(async (req: Request) => {
  const ip = clientIp(req.headers);
  const verdict = limiter.take(ip);
  if (!verdict.ok) {
    return apiError(429, "too_many_requests", "too many keep attempts: try again later", {
      headers: { "retry-after": String(verdict.retryAfterS) },
    });
  }
  // a token only: the cap holds for a declared length and for a body streamed without one
  const { token } = await readJsonBody(req, keepInputSchema, MAX_BODY);
  const r = await redeemKeepLinkNow(token, ip);
  if (!r.ok) return apiError(404, "not_found", r.message);
  return json({
    hostname: r.hostname,
    run: r.run,
    hours: r.hours,
    keepUntil: r.keepUntil.toISOString(),
  });
});
