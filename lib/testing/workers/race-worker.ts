// A second "collector process" for the two-processes test: it owns its own Db client on the
// shared SQLite file and, on each message, runs the alert evaluation and a delivery pass.
// Started with `fork(…, { execArgv: ["--conditions=react-server", "--import", "tsx"] })`.
import { evaluateAlerts } from "../../alerts/evaluate-rules.ts";
import { createEmbeddedSource } from "../../metrics/embedded/source.ts";
import { createDb } from "../../db.ts";
import { deliverDue } from "../../notify/deliver.ts";

interface Step {
  at: string;
}

const url = process.argv[2];
if (!url || !process.send) throw new Error("usage: fork race-worker.ts <database url>");
const db = createDb(url);

process.on("message", (m: Step | "exit") => {
  if (m === "exit") {
    void db.$disconnect().then(() => process.exit(0));
    return;
  }
  const now = new Date(m.at);
  void (async () => {
    try {
      const r = await evaluateAlerts(db, {
        now,
        metrics: createEmbeddedSource(db, 15),
        intervalS: 15,
      });
      const d = await deliverDue(db, { clock: () => now });
      process.send?.({ ok: true, errors: r.errors, delivered: d.delivered });
    } catch (e) {
      process.send?.({ ok: false, errors: [(e as Error).message], delivered: 0 });
    }
  })();
});
process.send({ ready: true });
