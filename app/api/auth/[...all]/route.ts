import { actorLabel, authenticate, forgetSessions } from "@/lib/auth/actor.ts";
import { clientIp, recordAudit } from "@/lib/auth/audit.ts";
import { getAuth } from "@/lib/auth/auth.ts";
import { claimAttempt, clearFailures, settleFailure } from "@/lib/auth/throttle.ts";
import { handlePublic, json, PayloadTooLargeError, readLimitedText } from "../../_lib/handle.ts";

// better-auth's endpoints, limited to the ones gpufleet uses (sign-in, sign-out, changing one's
// own password); pages read the session on the server, so nothing hands the session token to
// scripts (better-auth's JSON answers carry it; it is removed here so httpOnly means something).
// Sign-in is wrapped: failures per email are counted, slowed down and then refused for a while,
// and every attempt lands in the audit log.

const ALLOWED = new Set(["POST /sign-in/email", "POST /sign-out", "POST /change-password"]);

function endpoint(req: Request): string {
  const path = new URL(req.url).pathname.replace(/^\/api\/auth/, "").replace(/\/+$/, "");
  return `${req.method} ${path}`;
}

/** The response without the session token better-auth puts in its JSON body. */
async function withoutToken(res: Response): Promise<Response> {
  if (!res.headers.get("content-type")?.includes("json")) return res;
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!body || typeof body !== "object") return res;
  delete body.token;
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(body), { status: res.status, headers });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Only JSON bodies reach better-auth: a form-encoded body would slip past the email throttle. */
function isJson(req: Request): boolean {
  const type = req.headers.get("content-type") ?? "";
  return /^application\/json\s*(;|$)/i.test(type.trim());
}

function notJson(): Response {
  return json(
    { code: "UNSUPPORTED_MEDIA_TYPE", message: "send the body as application/json" },
    { status: 415 },
  );
}

async function signIn(req: Request): Promise<Response> {
  if (!isJson(req)) return notJson();
  let body: { email?: unknown } | null = null;
  try {
    body = JSON.parse(await readLimitedText(req.clone(), 64 * 1024)) as { email?: unknown } | null;
  } catch (e) {
    if (e instanceof PayloadTooLargeError) throw e;
  }
  const email =
    typeof body?.email === "string" ? body.email.trim().toLowerCase().slice(0, 200) : "";
  if (!email) {
    return json(
      { code: "EMAIL_REQUIRED", message: "email and password are required" },
      { status: 400 },
    );
  }
  const auth = await getAuth();
  const ip = clientIp(req.headers);
  // counted before the password is checked, atomically, so parallel guesses cannot outrun it
  const claim = await claimAttempt(email);
  if (claim.kind === "locked") {
    await recordAudit({
      actor: email,
      action: "auth.sign-in.refused",
      detail: { retryAfterS: claim.retryAfterS },
      ip,
    });
    const minutes = Math.ceil(claim.retryAfterS / 60);
    return json(
      {
        code: "TOO_MANY_FAILED_SIGN_INS",
        message: `Too many failed sign-ins for this email. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      },
      { status: 429, headers: { "retry-after": String(claim.retryAfterS) } },
    );
  }
  if (claim.delayMs > 0) await sleep(claim.delayMs);
  const res = await withoutToken(await auth.handler(req));
  if (res.ok) {
    await clearFailures(email);
    await recordAudit({ actor: email, action: "auth.sign-in", ip });
  } else {
    const locked = await settleFailure(email, claim.attempt);
    await recordAudit({ actor: email, action: "auth.sign-in.failed", detail: { locked }, ip });
  }
  return res;
}

export const POST = handlePublic(async (req: Request) => {
  const which = endpoint(req);
  if (!ALLOWED.has(which)) return json({ error: "not found" }, { status: 404 });
  if (which === "POST /sign-in/email") return signIn(req);
  if (which === "POST /change-password" && !isJson(req)) return notJson();
  const actor = await authenticate(req.headers);
  const res = await withoutToken(await (await getAuth()).handler(req));
  forgetSessions();
  if (res.ok && actor) {
    const action = which === "POST /sign-out" ? "auth.sign-out" : "auth.change-password";
    await recordAudit({ actor: actorLabel(actor), action, ip: clientIp(req.headers) });
  }
  return res;
});
