import { actorLabel, forgetSessions } from "@/lib/auth/actor.ts";
import { clientIp, recordAudit } from "@/lib/auth/audit.ts";
import { deleteUser, updateUser } from "@/lib/auth/users.ts";
import { NotFoundError } from "@/lib/core/errors.ts";
import { updateUserSchema } from "@/lib/zod/schemas/admin.ts";
import { apiError, handle, json } from "../../_lib/handle.ts";
import { noContent, readBody, type IdCtx } from "../../_lib/http.ts";

export const PATCH = handle(
  "users:admin",
  async (req: Request, ctx: IdCtx, actor) => {
    const { id } = await ctx.params;
    const patch = await readBody(req, updateUserSchema);
    const result = await updateUser(id, patch);
    forgetSessions();
    if (!result) throw new NotFoundError(`user ${id}`);
    const { before, after } = result;
    const changes: Record<string, unknown> = {};
    if (before.role !== after.role) changes.role = { from: before.role, to: after.role };
    if (before.teams.join() !== after.teams.join())
      changes.teams = { from: before.teams, to: after.teams };
    if (before.name !== after.name) changes.name = { from: before.name, to: after.name };
    if (patch.password !== undefined) changes.password = "changed";
    await recordAudit({
      actor: actorLabel(actor),
      action: changes.role ? "users.role-change" : "users.update",
      target: after.email,
      detail: changes,
      ip: clientIp(req.headers),
    });
    return json(after);
  },
  { audit: false },
);

export const DELETE = handle(
  "users:admin",
  async (req: Request, ctx: IdCtx, actor) => {
    const { id } = await ctx.params;
    if (actor.kind === "user" && actor.id === id) {
      return apiError(409, "conflict", "you cannot delete yourself; ask another admin");
    }
    const user = await deleteUser(id);
    forgetSessions();
    if (!user) throw new NotFoundError(`user ${id}`);
    await recordAudit({
      actor: actorLabel(actor),
      action: "users.delete",
      target: user.email,
      detail: { role: user.role },
      ip: clientIp(req.headers),
    });
    return noContent();
  },
  { audit: false },
);
