import { actorLabel } from "@/lib/auth/actor.ts";
import { clientIp, recordAudit } from "@/lib/auth/audit.ts";
import { requireFleetWide } from "@/lib/auth/scope.ts";
import {
  parseSpotHistory,
  SPOT_UPLOAD_MAX_BYTES,
  spotImportQuerySchema,
} from "@/lib/pricing/spot-history.ts";
import { importSpotHistoryToStore, spotImportLines } from "@/lib/pricing/spot-history-db.ts";
import { handle, json, parseQuery, readLimitedBytes } from "../../_lib/handle.ts";
import { requireMediaType } from "../../_lib/media-type.ts";

/**
 * Imports AWS spot price history (finance): the body is what `aws ec2 describe-spot-price-history
 * --output json` printed. mode=preview (the default) counts what would be added and writes
 * nothing; mode=apply (finance without a team limit) stores the records in one transaction and
 * records one audit entry. A bad record is a 400 naming it (`SpotPriceHistory[3].SpotPrice`); a
 * record stored at another price a 409, nothing written. Spot hours already in the ledger keep
 * their price until their month is re-priced.
 */
export const POST = handle(
  "pricing:write",
  async (req: Request, _ctx: unknown, actor) => {
    const q = parseQuery(spotImportQuerySchema, req.url);
    if (q.mode === "apply") requireFleetWide(actor, "importing spot prices");
    requireMediaType(
      req,
      ["application/json"],
      "spot price history is sent as application/json (the CLI's output as the body)",
    );
    const bytes = await readLimitedBytes(req, SPOT_UPLOAD_MAX_BYTES);
    const parsed = parseSpotHistory(new TextDecoder().decode(bytes), q.file);
    const result = await importSpotHistoryToStore(
      parsed.points,
      `aws ec2 describe-spot-price-history (${q.file}, uploaded by ${actorLabel(actor)})`,
      { dryRun: q.mode !== "apply" },
    );
    if (!result.dryRun) {
      await recordAudit({
        actor: actorLabel(actor),
        action: "pricing.spot_history.import",
        target: `aws:${q.file}`,
        detail: { file: q.file, added: result.added, unchanged: result.unchanged },
        ip: clientIp(req.headers),
      });
    }
    return json({
      ...result,
      read: parsed.read,
      kept: parsed.points.length,
      duplicates: parsed.duplicates,
      skippedProducts: parsed.skippedProducts,
      skippedZones: parsed.skippedZones,
      summary: spotImportLines(parsed, result),
    });
  },
  { audit: false, maxBodyBytes: SPOT_UPLOAD_MAX_BYTES },
);
