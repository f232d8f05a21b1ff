// A re-pricing apply to kill (lib/ledger/reprice-kill.integration.test.ts): applies a month with
// tiny pages against the database at <url>, prints {"paused": page, "runId"…} as one JSON line
// after staged page <pauseAt>, then waits there until killed. If it is not killed it never ends.
// Started with `spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", …])`.
import { createDb } from "../db.ts";
import { applyReprice } from "../ledger/reprice.ts";

const [url, month, expected, now, pageRows, pauseAt] = process.argv.slice(2);
if (!url || !month || !expected || !now || !pageRows || !pauseAt) {
  throw new Error(
    "usage: reprice-worker.ts <database url> <month> <expected new total micros> <now ISO> " +
      "<page rows> <pause after page>",
  );
}
const db = createDb(url);
await applyReprice(
  {
    month,
    now: new Date(now),
    by: "worker@test.local",
    expectedNewTotalMicros: expected,
    reopen: true,
    pageRows: Number(pageRows),
    onStagedPage: async (page) => {
      if (page !== Number(pauseAt)) return;
      const run = await db.repriceRun.findFirst({ where: { month, state: "staging" } });
      process.stdout.write(`${JSON.stringify({ paused: page, runId: run?.id ?? null })}\n`);
      // hold the page boundary until the test kills this process
      await new Promise<never>(() => setInterval(() => {}, 60_000));
    },
  },
  db,
);
process.stdout.write(`${JSON.stringify({ finished: true })}\n`);
await db.$disconnect();
