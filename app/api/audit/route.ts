import { listAudit } from "@/lib/auth/audit.ts";
import { auditQuerySchema } from "@/lib/zod/schemas/admin.ts";
import { handle, json, parseQuery } from "../_lib/handle.ts";

export const GET = handle("audit:read", async (req: Request) => {
  const q = parseQuery(auditQuerySchema, req.url);
  const entries = await listAudit({ ...q, before: q.before ? new Date(q.before) : undefined });
  return json({ entries });
});
