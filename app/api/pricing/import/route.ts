import { actorLabel } from "@/lib/auth/actor.ts";
import { clientIp, recordAudit } from "@/lib/auth/audit.ts";
import { requireFleetWide } from "@/lib/auth/scope.ts";
import { refreshFleetSoon } from "@/lib/fleet/fleet-cache.ts";
import { applyImportToStore } from "@/lib/pricing/import/apply-store.ts";
import { parseOffThread } from "@/lib/pricing/import/parse-off-thread.ts";
import {
  importQuerySchema,
  MAX_UPLOAD_BYTES,
  UPLOAD_CONTENT_TYPES,
} from "@/lib/pricing/import/schema.ts";
import { handle, json, parseQuery, readLimitedBytes } from "../../_lib/handle.ts";
import { requireMediaType } from "../../_lib/media-type.ts";

/**
 * Imports GPU prices from one uploaded price-list file (finance): the raw file is the body, the
 * provider and mode are in the query. mode=preview (the default) compares with the catalogue and
 * writes nothing; mode=apply (finance without a team limit) adds the new rows in one transaction and records one audit entry with
 * the counts (the generic per-request entry is off: a preview is not a change). Conflicting rows
 * are reported, never overwritten. Full AWS offer files are for `npm run pricing:import`.
 */
export const POST = handle(
  "pricing:write",
  async (req: Request, _ctx: unknown, actor) => {
    const q = parseQuery(importQuerySchema, req.url);
    // a preview writes nothing: a team-limited user may compare a file with the catalogue
    if (q.mode === "apply") requireFleetWide(actor, "importing prices");
    const accepted = UPLOAD_CONTENT_TYPES[q.provider];
    requireMediaType(
      req,
      accepted,
      `a ${q.provider} price list is sent as ${accepted.join(" or ")} (the raw file as the body)`,
    );
    const bytes = await readLimitedBytes(req, MAX_UPLOAD_BYTES);
    // on a worker thread: a large or hostile file never holds up this process's other requests
    const parsed = await parseOffThread({
      provider: q.provider,
      name: q.file,
      bytes,
      opts: { sourceDate: q.sourceDate, sourceUrl: q.sourceUrl },
    });
    const result = await applyImportToStore(parsed, {
      dryRun: q.mode !== "apply",
      provider: q.provider,
    });
    if (!result.dryRun) {
      await recordAudit({
        actor: actorLabel(actor),
        action: "pricing.import",
        target: `${q.provider}:${q.file}`,
        detail: {
          provider: q.provider,
          file: q.file,
          added: result.added,
          unchanged: result.unchanged,
          conflicts: result.conflicts.length,
          skippedNonGpu: result.skippedNonGpu,
        },
        ip: clientIp(req.headers),
      });
      if (result.added > 0) await refreshFleetSoon();
    }
    return json(result);
  },
  { audit: false, maxBodyBytes: MAX_UPLOAD_BYTES },
);
