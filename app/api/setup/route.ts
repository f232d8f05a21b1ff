import { clientIp, recordAudit } from "@/lib/auth/audit.ts";
import { crossSiteReason } from "@/lib/auth/csrf.ts";
import { completeSetup } from "@/lib/auth/setup.ts";
import { setupSchema } from "@/lib/zod/schemas/admin.ts";
import { forbidden, handlePublic, json } from "../_lib/handle.ts";
import { readBody } from "../_lib/http.ts";
import { userInput } from "../users/_lib.ts";

/** First run: the one-time link's token creates the first admin, once. */
export const POST = handlePublic(async (req: Request) => {
  const why = crossSiteReason(req);
  if (why) return forbidden(why);
  const input = await readBody(req, setupSchema);
  const user = await userInput(() => completeSetup(input.token, input));
  if (!user) {
    return json(
      { error: "this setup link is not valid: it was used, it expired, or a user exists" },
      { status: 403 },
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
