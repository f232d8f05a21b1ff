import { clientIp, recordAudit } from "@/lib/auth/audit.ts";
import { crossSiteReason } from "@/lib/auth/csrf.ts";
import { completeSetup } from "@/lib/auth/setup.ts";
import { UserInputError } from "@/lib/auth/users.ts";
import { setupSchema } from "@/lib/zod/schemas/admin.ts";
import { BadRequestError, forbidden, handlePublic, json } from "../_lib/handle.ts";
import { readBody } from "../alerts/_lib/http.ts";

/** First run: the one-time link's token creates the first admin, once. */
export const POST = handlePublic(async (req: Request) => {
  const why = crossSiteReason(req);
  if (why) return forbidden(why);
  const input = await readBody(req, setupSchema);
  try {
    const user = await completeSetup(input.token, input);
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
  } catch (e) {
    if (e instanceof UserInputError)
      throw new BadRequestError(e.message, [{ path: e.field, message: e.message }]);
    throw e;
  }
});
