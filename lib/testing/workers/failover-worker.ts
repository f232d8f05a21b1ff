// One collector "replica" for the failover test: the real collector loop and ledger job against
// the shared database, with a short interval and one ledger hour per tick so that a kill can land
// between hours. Prints its lease holder id as one JSON line, then runs until killed.
// Started with `spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", …])`.
import { embeddedBackend } from "../../metrics/backend.ts";
import { createDb } from "../../db.ts";
import { runLedgerJob } from "../../ledger/job.ts";
import { createCollector } from "../../jobs/loop.ts";

const [url, interval] = process.argv.slice(2);
if (!url) throw new Error("usage: failover-worker.ts <database url> [interval seconds]");
const db = createDb(url);
const collector = createCollector(db, {
  intervalS: Number(interval ?? 1),
  metrics: embeddedBackend(db, Number(interval ?? 1)),
  scrapeTimeoutMs: 1000,
  scrapeConcurrency: 1,
  retentionDays: 365,
  jobs: [{ name: "ledger", run: (ctx) => runLedgerJob(ctx, 1) }],
  log: (m) => console.error(`[failover-worker ${process.pid}] ${m}`),
});
// the loop's timer is unref'd (it must not hold a Next server open): keep this process alive
const keepAlive = setInterval(() => {}, 60_000);
process.stdout.write(`${JSON.stringify({ holder: collector.holder, pid: process.pid })}\n`);
for (const sig of ["SIGTERM", "SIGINT"] as const)
  process.on(sig, () => {
    collector.stop();
    clearInterval(keepAlive);
    void db.$disconnect().finally(() => process.exit(0));
  });
