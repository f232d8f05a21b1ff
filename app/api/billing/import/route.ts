import { actorLabel } from "@/lib/auth/actor.ts";
import { clientIp, recordAudit } from "@/lib/auth/audit.ts";
import { requireNoTeamLimit } from "@/lib/auth/scope.ts";
import { importBillFile } from "@/lib/billing/service.ts";
import {
  BILL_CONTENT_TYPES,
  billImportQuerySchema,
  MAX_BILL_UPLOAD_BYTES,
} from "@/lib/zod/schemas/billing.ts";
import { BadRequestError } from "../../_lib/errors.ts";
import { handle, json, parseQuery } from "../../_lib/handle.ts";
import { spoolBody } from "../../_lib/spool.ts";
import { requireMediaType } from "../../_lib/media-type.ts";

/**
 * Imports a cloud bill (finance): the raw export file is the body (CSV, gzip CSV or Parquet; up to
 * 512 MiB, spooled to a temporary file as it arrives, then read streaming). mode=preview (the
 * default) reads and counts and writes nothing; mode=apply keeps the lines and records one audit
 * entry with the counts. The bill is account-wide: a user limited to some teams may not import.
 */
export const POST = handle(
  "pricing:write",
  async (req: Request, _ctx: unknown, actor) => {
    requireNoTeamLimit(actor, "a cloud bill covers the whole account");
    const q = parseQuery(billImportQuerySchema, req.url);
    requireMediaType(
      req,
      BILL_CONTENT_TYPES,
      `a bill is sent as the raw file with content type ${BILL_CONTENT_TYPES.join(", ")}`,
    );
    const body = await spoolBody(req, MAX_BILL_UPLOAD_BYTES);
    try {
      if (body.bytes === 0) throw new BadRequestError("the body is empty: send the bill file");
      const by = actorLabel(actor);
      const report = await importBillFile(body.path, {
        file: q.file,
        by,
        dryRun: q.mode !== "apply",
        ...(q.format ? { format: q.format } : {}),
      });
      if (!report.dryRun) {
        await recordAudit({
          actor: by,
          action: "billing.import",
          target: q.file,
          detail: {
            file: q.file,
            format: report.format,
            providers: report.providers,
            period: report.period,
            rowsRead: report.rowsRead,
            rowsKept: report.rowsKept,
            lines: report.lines,
            effectiveMicros: report.effectiveMicros,
            replaced: report.replaced,
          },
          ip: clientIp(req.headers),
        });
      }
      return json(report);
    } finally {
      await body.remove();
    }
  },
  { audit: false, maxBodyBytes: MAX_BILL_UPLOAD_BYTES },
);
