import "server-only";
import type { TeamScope } from "@/lib/auth/scope.ts";
import type { Db } from "@/lib/db.ts";
import { focusCsvStream } from "./csv.ts";
import { prepareFocusExport } from "./load-focus.ts";
import { focusParquetStream } from "./parquet.ts";
import { focusFileName, focusPeriod, type FocusQuery } from "./query.ts";

// The FOCUS export as a download: the file streams out one UTC day of the ledger at a time.
// Hours without a catalogue price have no cost FOCUS could carry (its cost columns allow no null
// and 0 would claim they were free), so they are left out and counted for the response headers.

export const CONTENT_TYPES = {
  csv: "text/csv; charset=utf-8",
  parquet: "application/vnd.apache.parquet",
} as const;

export interface FocusDownload {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  fileName: string;
  unpriced: { hostHours: number; upSeconds: number };
}

function toStream(chunks: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (e) {
        // the status line is long gone: the download ends short and the reason goes to the log
        console.error("[focus] export failed while streaming:", e);
        controller.error(e);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

export async function exportFocus(
  q: FocusQuery,
  { scope, now = new Date(), client }: { scope: TeamScope; now?: Date; client?: Db },
): Promise<FocusDownload> {
  const period = focusPeriod(q, now);
  const prepared = await prepareFocusExport(period, { scope, ...(client ? { client } : {}) });
  const batches = prepared.batches(q.granularity);
  const chunks =
    q.format === "csv"
      ? focusCsvStream(batches)
      : focusParquetStream(batches, {
          kvMetadata: [
            { key: "focus_version", value: "1.2" },
            {
              key: "gpufleet.period",
              value: `${period.from.toISOString()}/${period.to.toISOString()}`,
            },
            { key: "gpufleet.granularity", value: q.granularity },
            { key: "gpufleet.unpriced_host_hours", value: String(prepared.unpriced.hostHours) },
          ],
        });
  return {
    body: toStream(chunks),
    contentType: CONTENT_TYPES[q.format],
    fileName: focusFileName(period, q),
    unpriced: prepared.unpriced,
  };
}
