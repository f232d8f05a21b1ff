import { actorLabel } from "@/lib/auth/actor.ts";
import { clientIp, recordAudit } from "@/lib/auth/audit.ts";
import { importPeople, parsePeopleCsv } from "@/lib/people/directory.ts";
import { handle, json, noQuery, parseQuery, readLimitedText } from "../../_lib/handle.ts";
import { requireMediaType } from "../../_lib/media-type.ts";

const MAX_BYTES = 4 * 1024 * 1024;

/**
 * Replaces the directory's CSV entries with a CSV sent raw as the body (text/csv, at most 4 MiB):
 * header kind,key,email,slack_id (kind optional: user). Every line is checked first; a bad one
 * refuses the file (400 naming the line). Entries added by hand are kept and win. One audit entry
 * records the counts (not the addresses).
 */
export const POST = handle(
  "settings:write",
  async (req: Request, _ctx: unknown, actor) => {
    parseQuery(noQuery, req.url);
    requireMediaType(
      req,
      ["text/csv", "text/plain"],
      "send the CSV file as the body with content type text/csv",
    );
    const rows = parsePeopleCsv(await readLimitedText(req, MAX_BYTES));
    const result = await importPeople(rows);
    await recordAudit({
      actor: actorLabel(actor),
      action: "people.import",
      target: "/api/people/import",
      detail: result,
      ip: clientIp(req.headers),
    });
    return json(result);
  },
  { audit: false, maxBodyBytes: MAX_BYTES },
);
