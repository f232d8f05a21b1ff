import { actorLabel } from "@/lib/auth/actor.ts";
import { clientIp, recordAudit } from "@/lib/auth/audit.ts";
import { parseBenchmarkCsv } from "@/lib/benchmarks/csv.ts";
import { importBenchmarks } from "@/lib/benchmarks/manage.ts";
import { handle, json, noQuery, parseQuery, readLimitedText } from "../../_lib/handle.ts";
import { requireMediaType } from "../../_lib/media-type.ts";

/**
 * Imports benchmark results from a CSV sent raw as the body (text/csv, at most 1 MiB): header
 * provider,instanceType,workload,unit,value,source,sourceDate,note. Every line is checked first; a
 * bad one refuses the file (400 naming the line) and nothing is written. Then all lines are added
 * or updated in one transaction, and one audit entry records the counts.
 */
export const POST = handle(
  "benchmarks:write",
  async (req: Request, _ctx: unknown, actor) => {
    parseQuery(noQuery, req.url);
    requireMediaType(
      req,
      ["text/csv", "text/plain"],
      "send the CSV file as the body with content type text/csv",
    );
    const rows = parseBenchmarkCsv(await readLimitedText(req));
    const result = await importBenchmarks(rows, actorLabel(actor));
    await recordAudit({
      actor: actorLabel(actor),
      action: "benchmarks.import",
      target: "/api/benchmarks/import",
      detail: result,
      ip: clientIp(req.headers),
    });
    return json(result);
  },
  { audit: false },
);
