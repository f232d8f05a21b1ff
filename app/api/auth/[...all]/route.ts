import { z } from "zod";
import { actorLabel, authenticate, forgetSessions } from "@/lib/auth/actor.ts";
import { clientIp, recordAudit } from "@/lib/auth/audit.ts";
import { getAuth } from "@/lib/auth/auth.ts";
import { recordCounted, recordOnce, UNKNOWN_EMAIL } from "@/lib/auth/audit-count.ts";
import { signInLimiter } from "@/lib/auth/ip-limit.ts";
import { emailHasAccount } from "@/lib/auth/users.ts";
import { claimAttempt, clearFailures, settleFailure } from "@/lib/auth/throttle.ts";
import {
  apiError,
  handlePublic,
  PayloadTooLargeError,
  readLimitedText,
} from "../../_lib/handle.ts";

// better-auth's endpoints, limited to the ones gpufleet uses (sign-in, sign-out, changing one's
// own password); pages read the session on the server, so nothing hands the session token to
// scripts (better-auth's JSON answers carry it; it is removed here so httpOnly means something).
// Sign-in is wrapped: requests per client address are limited before anything is written
// (ip-limit.ts), the email must be an email, failures per email are counted, slowed down and then
// refused for a while (throttle.ts), and refused attempts are audited as one counted row per
// window (audit-count.ts): per email for an account's email, per client address for an email no
// account has; a success gets its own row.

const ALLOWED = new Set(["POST /sign-in/email", "POST /sign-out", "POST /change-password"]);

function endpoint(req: Request): string {
  const path = new URL(req.url).pathname.replace(/^\/api\/auth/, "").replace(/\/+$/, "");
  return `${req.method} ${path}`;
}

/**
 * better-auth's answer as the API answers: without the session token it puts in its JSON body,
 * and an error's {code, message} as the API's one error shape {error, code} (app/api/_lib/errors.ts).
 */
async function asApiAnswer(res: Response): Promise<Response> {
  if (!res.headers.get("content-type")?.includes("json")) return res;
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!body || typeof body !== "object") return res;
  delete body.token;
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  if (!res.ok) {
    const message = typeof body.message === "string" ? body.message : res.statusText || "refused";
    const code = typeof body.code === "string" ? body.code.toLowerCase() : "bad_request";
    return apiError(res.status, code, message, { headers });
  }
  return new Response(JSON.stringify(body), { status: res.status, headers });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Only JSON bodies reach better-auth: a form-encoded body would slip past the email throttle. */
function isJson(req: Request): boolean {
  const type = req.headers.get("content-type") ?? "";
  return /^application\/json\s*(;|$)/i.test(type.trim());
}

function notJson(): Response {
  return apiError(415, "unsupported_media_type", "send the body as application/json");
}

/** An email as people type one; anything else is refused before the store is touched. */
const emailShape = z.email().max(254);

function tooMany(message: string, retryAfterS: number, code: string): Response {
  return apiError(429, code, message, { headers: { "retry-after": String(retryAfterS) } });
}

async function signIn(req: Request): Promise<Response> {
  if (!isJson(req)) return notJson();
  const ip = clientIp(req.headers);
  // the per-address limit comes first: a refused request writes nothing at all
  const verdict = signInLimiter.take(ip);
  if (!verdict.ok) {
    return tooMany(
      "Too many sign-in attempts from this address; try again later.",
      verdict.retryAfterS,
      "too_many_requests",
    );
  }
  let body: { email?: unknown } | null = null;
  try {
    body = JSON.parse(await readLimitedText(req.clone(), 64 * 1024)) as { email?: unknown } | null;
  } catch (e) {
    if (e instanceof PayloadTooLargeError) throw e;
  }
  const raw = typeof body?.email === "string" ? body.email.trim().toLowerCase() : "";
  if (!raw) {
    return apiError(400, "email_required", "email and password are required");
  }
  const parsed = emailShape.safeParse(raw);
  if (!parsed.success) return apiError(400, "invalid_email", "email is not an email address");
  const email = parsed.data;
  const auth = await getAuth();
  // Whom a refusal's audit row counts: an account's email, per email; an email no account has,
  // per client address, so invented emails cannot add rows faster than the windows pass (and the
  // row names no invented text). The lookup runs for every attempt alike.
  const who = (await emailHasAccount(email))
    ? { actor: email }
    : { actor: UNKNOWN_EMAIL, key: `address:${ip ?? "unknown"}` };
  // counted before the password is checked, atomically, so parallel guesses cannot outrun it
  const claim = await claimAttempt(email);
  if (claim.kind === "locked") {
    await recordOnce({
      ...who,
      action: "auth.sign-in.refused",
      ip,
      detail: { retryAfterS: claim.retryAfterS },
    });
    const minutes = Math.ceil(claim.retryAfterS / 60);
    return tooMany(
      `Too many failed sign-ins for this email. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      claim.retryAfterS,
      "too_many_failed_sign_ins",
    );
  }
  if (claim.delayMs > 0) await sleep(claim.delayMs);
  const res = await asApiAnswer(await auth.handler(req));
  if (res.ok) {
    await clearFailures(email);
    await recordAudit({ actor: email, action: "auth.sign-in", ip });
  } else {
    const locked = await settleFailure(email, claim.attempt);
    await recordCounted({ ...who, action: "auth.sign-in.failed", ip, locked });
  }
  return res;
}

export const POST = handlePublic(async (req: Request) => {
  const which = endpoint(req);
  if (!ALLOWED.has(which)) return apiError(404, "not_found", "not found");
  if (which === "POST /sign-in/email") return signIn(req);
  if (which === "POST /change-password" && !isJson(req)) return notJson();
  const actor = await authenticate(req.headers);
  const res = await asApiAnswer(await (await getAuth()).handler(req));
  forgetSessions();
  if (res.ok && actor) {
    const action = which === "POST /sign-out" ? "auth.sign-out" : "auth.change-password";
    await recordAudit({ actor: actorLabel(actor), action, ip: clientIp(req.headers) });
  }
  return res;
});
