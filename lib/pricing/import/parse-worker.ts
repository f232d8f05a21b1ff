import { parentPort } from "node:worker_threads";
import { InvalidInputError } from "../../core/errors.ts";
import { parseImport } from "./parse.ts";
import { ROWS_PER_MESSAGE, type ParseJob, type ParseMessage } from "./parse-protocol.ts";

// The worker thread parse-off-thread.ts starts for one upload: the job in; the rows out in
// batches, one per request, then the counts (or the refusal); then it ends. It parses with the CLI's parseImport.

async function run(job: ParseJob, post: (m: ParseMessage) => void): Promise<void> {
  try {
    const source = [job.bytes];
    const { rows, ...counts } = await parseImport(
      job.provider,
      [{ name: job.name, source }],
      job.opts,
    );
    // in batches, each sent when the request thread asks for it: it takes them in one task at a
    // time with its other work between them, never 100,000 rows at once
    for (let i = 0; i < rows.length; i += ROWS_PER_MESSAGE) {
      post({ kind: "rows", rows: rows.slice(i, i + ROWS_PER_MESSAGE) });
      await nextAsked();
    }
    post({ kind: "done", ...counts });
  } catch (e) {
    if (e instanceof InvalidInputError) {
      post({ kind: "refused", message: e.message, issues: e.issues });
    } else {
      post({ kind: "failed", error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    }
  }
}

/** Resolves when the request thread asks for the next batch of rows. */
const nextAsked = (): Promise<void> =>
  new Promise((resolve) => parentPort?.once("message", () => resolve()));

parentPort?.once("message", (job: ParseJob) => {
  void run(job, (m) => parentPort?.postMessage(m));
});
