// A notification sender for the crash test: one delivery pass (the real deliverDue) at a pinned
// clock, one notification at a time, then prints its report as one JSON line and exits. The
// parent SIGKILLs it while a send is in flight.
// Started with `spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", …])`.
import { createDb } from "../lib/db.ts";
import { deliverDue } from "../lib/notify/deliver.ts";

const [url, at] = process.argv.slice(2);
if (!url || !at || Number.isNaN(Date.parse(at))) {
  throw new Error("usage: deliver-worker.ts <database url> <clock, ISO 8601>");
}
const now = new Date(at);
const db = createDb(url);
// the test's receiver is on 127.0.0.1: as an admin allowing private webhook targets
const report = await deliverDue(db, {
  clock: () => now,
  concurrency: 1,
  allowPrivate: async () => true,
  publicUrl: undefined,
});
await db.$disconnect();
process.stdout.write(`${JSON.stringify(report)}\n`);
