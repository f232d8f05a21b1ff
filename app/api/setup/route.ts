import { clientIp, recordAudit } from "@/lib/auth/audit.ts";
import { crossSiteReason } from "@/lib/auth/csrf.ts";
import { completeSetup } from "@/lib/auth/setup.ts";
import { setupSchema } from "@/lib/zod/schemas/admin.ts";
import { apiError, forbidden, handlePublic, json } from "../_lib/handle.ts";
import { readBody } from "../_lib/http.ts";

/** First run: the one-time link's token creates the first admin, once. */
export const POST = handlePublic(async (req: Request) => {
  const why = crossSiteReason(req);
  if (why) return forbidden(why);
  const input = await readBody(req, setupSchema);
  const user = await completeSetup(input.token, input);
  if (!user) {
    return apiError(
      403,
      "forbidden",
      "this setup link is not valid: it was used, it expired, or a user exists",
    );
  }
  await recordAudit({
    actor: user.email,
    action: "auth.setup",
    target: user.id,
    ip: clientIp(req.headers),
  });
  return json(user, { status: 201 });
});
