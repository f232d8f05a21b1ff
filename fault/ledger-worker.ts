// A collector process for the crash test: runs the real ledger job, one hour per call, at a
// pinned `now` until every closed hour is written, then prints "done" and exits. The parent
// SIGKILLs it mid-run and starts it again on the same store.
// Started with `spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", …])`.
import { createDb } from "../lib/db.ts";
import { floorHour, runLedgerJob } from "../lib/ledger/job.ts";
import { embeddedBackend } from "../lib/metrics/backend.ts";

const [url, at] = process.argv.slice(2);
if (!url || !at || Number.isNaN(Date.parse(at))) {
  throw new Error("usage: ledger-worker.ts <database url> <now, ISO 8601>");
}
const now = new Date(at);
const db = createDb(url);
const ctx = { db, now, metrics: embeddedBackend(db, 60).source };
const lastClosed = floorHour(now.getTime()) - 3_600_000;
process.stdout.write(`${JSON.stringify({ pid: process.pid })}\n`);
for (;;) {
  await runLedgerJob(ctx, 1);
  const state = await db.jobState.findUnique({ where: { name: "ledger.lastHour" } });
  if (state && Date.parse(state.value) >= lastClosed) break;
}
await db.$disconnect();
process.stdout.write("done\n");
