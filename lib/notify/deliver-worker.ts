// A delivering "app process" for the crash test (deliver-crash.integration.test.ts): it runs one
// delivery pass on the given database at the given time and is killed with SIGKILL mid-send.
// Started with `fork(…, { execArgv: ["--conditions=react-server", "--import", "tsx"] })`.
import { createDb } from "../db.ts";
import { deliverDue } from "./deliver.ts";

const [url, at] = process.argv.slice(2);
if (!url || !at || !process.send) throw new Error("usage: fork deliver-worker.ts <db url> <iso>");
const db = createDb(url);
const now = new Date(at);
process.send({ ready: true });
void deliverDue(db, { clock: () => now, concurrency: 4, timeoutMs: 60_000 }).then((r) =>
  process.send?.({ done: r }),
);
