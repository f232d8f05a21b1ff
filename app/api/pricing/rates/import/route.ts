import { actorLabel } from "@/lib/auth/actor.ts";
import { clientIp, recordAudit } from "@/lib/auth/audit.ts";
import { requireFleetWide } from "@/lib/auth/scope.ts";
import { refreshFleetSoon } from "@/lib/fleet/fleet-cache.ts";
import {
  RATES_UPLOAD_CONTENT_TYPES,
  RATES_UPLOAD_MAX_BYTES,
  ratesUploadQuerySchema,
} from "@/lib/pricing/rates-upload.ts";
import { importRatesUpload } from "@/lib/pricing/rates-upload-db.ts";
import { handle, json, parseQuery, readLimitedBytes } from "../../../_lib/handle.ts";
import { requireMediaType } from "../../../_lib/media-type.ts";

/**
 * Imports exchange rates from a Federal Reserve H.10/G.5 CSV as the Data Download Program writes
 * it (finance): the raw file is the body. mode=preview (the default) counts what would be added
 * and writes nothing; mode=apply (finance without a team limit) adds the new rates in one
 * transaction and records one audit entry. A bad line refuses the file: a 400 whose issues name
 * each line. A day already stored at another figure is reported and left as it is. Hours already
 * in the ledger keep their rate until their month is re-priced.
 */
export const POST = handle(
  "pricing:write",
  async (req: Request, _ctx: unknown, actor) => {
    const q = parseQuery(ratesUploadQuerySchema, req.url);
    if (q.mode === "apply") requireFleetWide(actor, "importing exchange rates");
    requireMediaType(
      req,
      RATES_UPLOAD_CONTENT_TYPES,
      "an H.10/G.5 file is sent as text/csv (the downloaded CSV as the body)",
    );
    const bytes = await readLimitedBytes(req, RATES_UPLOAD_MAX_BYTES);
    const by = actorLabel(actor);
    const result = await importRatesUpload(new TextDecoder().decode(bytes), q.file, by, {
      dryRun: q.mode !== "apply",
    });
    if (!result.dryRun) {
      await recordAudit({
        actor: by,
        action: "pricing.rates.import",
        target: `h10:${q.file}`,
        detail: {
          file: q.file,
          added: result.added,
          unchanged: result.unchanged,
          conflicts: result.conflicts.length,
          span: result.span,
        },
        ip: clientIp(req.headers),
      });
      if (result.added > 0) await refreshFleetSoon();
    }
    return json(result);
  },
  { audit: false, maxBodyBytes: RATES_UPLOAD_MAX_BYTES },
);
