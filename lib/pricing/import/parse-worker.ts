import { parentPort } from "node:worker_threads";
import { InvalidInputError } from "../../core/errors.ts";
import { parseImport } from "./parse.ts";
import type { ParseJob, ParseOutcome } from "./parse-off-thread.ts";

// The worker thread parse-off-thread.ts starts for one upload: the job in, the parsed import or
// the refusal out, then it ends. It parses with the same parseImport as the CLI.

async function run(job: ParseJob): Promise<ParseOutcome> {
  try {
    const source = [job.bytes];
    const parsed = await parseImport(job.provider, [{ name: job.name, source }], job.opts);
    return { ok: true, parsed };
  } catch (e) {
    if (e instanceof InvalidInputError) {
      return { ok: false, refused: { message: e.message, issues: e.issues } };
    }
    return { ok: false, failed: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
}

parentPort?.once("message", (job: ParseJob) => {
  void run(job).then((out) => parentPort?.postMessage(out));
});
