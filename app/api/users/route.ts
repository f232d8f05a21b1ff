import { actorLabel } from "@/lib/auth/actor.ts";
import { clientIp, recordAudit } from "@/lib/auth/audit.ts";
import { createUser, listUsers } from "@/lib/auth/users.ts";
import { createUserSchema } from "@/lib/zod/schemas/admin.ts";
import { handle, json, noQuery, parseQuery } from "../_lib/handle.ts";
import { readBody } from "../_lib/http.ts";

export const GET = handle("users:admin", async (req: Request) => {
  parseQuery(noQuery, req.url);
  return json({ users: await listUsers() });
});

export const POST = handle(
  "users:admin",
  async (req: Request, _ctx: unknown, actor) => {
    const input = await readBody(req, createUserSchema);
    const user = await createUser(input);
    await recordAudit({
      actor: actorLabel(actor),
      action: "users.create",
      target: user.email,
      detail: { role: user.role, teams: user.teams },
      ip: clientIp(req.headers),
    });
    return json(user, { status: 201 });
  },
  { audit: false },
);
