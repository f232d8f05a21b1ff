import { Worker } from "node:worker_threads";
import { InvalidInputError } from "../../core/errors.ts";
import type { ParseJob, ParseMessage } from "./parse-protocol.ts";
import type { ImportRow, ParsedImport } from "./types.ts";

export type { ParseJob } from "./parse-protocol.ts";

// Parses an uploaded price list on a worker thread (parse-worker.ts), so a large or hostile file
// costs the request thread nothing: pages, the API and the collector keep their time while it is
// read. At most PARALLEL parses run at once (the rest wait their turn), each with its own heap
// limit and a deadline; the parse itself refuses hostile structure as it streams (json-stream.ts).

/** Parses at once; two keep the app's other work in time on a two-core machine. */
export const PARALLEL = 2;
/** A worker's heap: a 16 MiB upload of valid rows needs about a tenth of it. */
export const WORKER_HEAP_MB = 512;
/** A 16 MiB file parses in a few seconds; one still going after this is refused. */
export const PARSE_DEADLINE_MS = 120_000;

/** Registers tsx in the worker, then loads the worker module (from source only). */
const FROM_SOURCE = `
const { workerData } = require("node:worker_threads");
import("tsx/esm/api").then((tsx) => { tsx.register(); return import(workerData.entry); });
`;

let running = 0;
const waiting: (() => void)[] = [];

async function turn(): Promise<void> {
  if (running < PARALLEL) {
    running++;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function done(): void {
  const next = waiting.shift();
  if (next) next();
  else running--;
}

/** The parsed upload, or the import's refusal (InvalidInputError, a 400 naming the line). */
export async function parseOffThread(job: ParseJob): Promise<ParsedImport> {
  await turn();
  try {
    return await inWorker(job);
  } finally {
    done();
  }
}

function inWorker(job: ParseJob): Promise<ParsedImport> {
  return new Promise((resolve, reject) => {
    const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB };
    // In the built app (Next defines NEXT_RUNTIME) Turbopack gives parse-worker.ts a chunk of its
    // own, which Node loads as it is. Run from source (tests, tsx) it is a .ts file that a worker
    // loads only once tsx's loader is registered in it, which a worker's execArgv cannot do.
    // (import.meta.url cannot tell them apart: Turbopack keeps the source's .ts name in it.)
    const worker =
      process.env.NEXT_RUNTIME === "nodejs"
        ? new Worker(new URL("./parse-worker.ts", import.meta.url), { resourceLimits })
        : new Worker(FROM_SOURCE, {
            eval: true,
            workerData: { entry: new URL("./parse-worker.ts", import.meta.url).href },
            resourceLimits,
          });
    let settled = false;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(() => {
      settle(() =>
        reject(
          new InvalidInputError(
            `${job.name}: still not read after ${PARSE_DEADLINE_MS / 1000} s: too large or too complex for an upload (import it with npm run pricing:import on the server)`,
            [],
          ),
        ),
      );
    }, PARSE_DEADLINE_MS);
    const rows: ImportRow[] = [];
    worker.on("message", (m: ParseMessage) => {
      if (m.kind === "rows") {
        for (const r of m.rows) rows.push(r);
        // the next batch once this thread has had a turn for its other work
        setImmediate(() => worker.postMessage("next"));
        return;
      }
      settle(() => {
        if (m.kind === "done") {
          const { kind: _done, ...counts } = m;
          resolve({ ...counts, rows });
        } else if (m.kind === "refused") reject(new InvalidInputError(m.message, m.issues));
        else reject(new Error(`the price-list parser failed: ${m.error}`));
      });
    });
    worker.once("error", (e: Error & { code?: string }) => {
      settle(() =>
        reject(
          e.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? new InvalidInputError(
                `${job.name}: reading it needs more than ${WORKER_HEAP_MB} MB: too large or too complex for an upload (import it with npm run pricing:import on the server)`,
                [],
              )
            : e,
        ),
      );
    });
    worker.once("exit", (code) => {
      settle(() => reject(new Error(`the price-list parser stopped (exit code ${code})`)));
    });
    worker.postMessage(job);
  });
}
