import { actOnAlerts, type BulkAct } from "@/lib/alerts/act-on-alert.ts";
import { actorLabel } from "@/lib/auth/actor.ts";
import { clientIp, recordAudit } from "@/lib/auth/audit.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import { alertBulkInputSchema, type AlertBulkResult } from "@/lib/zod/schemas/alert.ts";
import { handle, json } from "../../_lib/handle.ts";
import { readBody } from "../../_lib/http.ts";

// Acknowledge, snooze or resolve up to 500 alerts in one request (the alerts page's selection).
// Each alert is acted on as its single route would (same state checks, same team scope, its own
// AlertEvent) and gets its own result, so one alert in the wrong state does not fail the rest.
// One audit entry per request names the action and every id it changed or could not.
export const POST = handle(
  "alerts:act",
  async (req: Request, _ctx: unknown, actor) => {
    const body = await readBody(req, alertBulkInputSchema);
    const now = new Date();
    const act: BulkAct =
      body.action === "snooze"
        ? { action: "snooze", until: new Date(now.getTime() + (body.minutes ?? 60) * 60_000) }
        : { action: body.action };
    const by = actorLabel(actor);
    const results = await actOnAlerts(body.ids, act, by, body.note, {
      now,
      scope: teamScope(actor),
    });
    const changed = results.filter((r) => r.ok).map((r) => r.id);
    const failed = results.filter((r) => !r.ok).map((r) => ({ id: r.id, error: r.error }));
    if (changed.length > 0) {
      await recordAudit({
        actor: by,
        action: `alerts.bulk.${body.action}`,
        target: changed.length === 1 ? (changed[0] ?? "") : `${changed.length} alerts`,
        detail: {
          ids: changed,
          ...(failed.length > 0 ? { failed } : {}),
          ...(body.minutes !== undefined ? { minutes: body.minutes } : {}),
          ...(body.note ? { note: body.note } : {}),
        },
        ip: clientIp(req.headers),
      }).catch((e: unknown) => console.error("[audit] could not record a bulk alert action", e));
    }
    const out: AlertBulkResult = {
      action: body.action,
      results,
      succeeded: changed.length,
      failed: failed.length,
    };
    return json(out);
  },
  { audit: false },
);
