// npm start runs this every time the demo is on: on an empty store it seeds the demo fleet; on a
// store that has it, it matches the demo hosts to the exporter now running (its address and host
// count may have changed since: see lib/demo/reconcile.ts). A store without demo hosts is left alone.
import { parseArgs } from "node:util";
import { env } from "../lib/env.ts";
import { db } from "../lib/db.ts";
import { pointDemoMailbox } from "../lib/demo/mailbox.ts";
import { reconcileDemo } from "../lib/demo/reconcile.ts";
import { seedDemo } from "../lib/demo/seed.ts";

const { values } = parseArgs({
  options: {
    exporter: { type: "string", default: "http://127.0.0.1:9445" },
    hosts: { type: "string", default: "24" },
    "mailbox-port": { type: "string" },
  },
});
const hosts = Number(values.hosts);
if (!Number.isInteger(hosts) || hosts < 0) {
  console.error(`gpufleet: --hosts must be a whole number, not ${values.hosts}`);
  process.exit(1);
}
const opts = {
  exporterBase: values.exporter,
  databaseUrl: env.DATABASE_URL,
  hosts,
  now: new Date(),
  log: (m: string) => console.log(`gpufleet: demo: ${m}`),
};
const mailboxPort = values["mailbox-port"] === undefined ? null : Number(values["mailbox-port"]);
if (
  mailboxPort !== null &&
  !(Number.isInteger(mailboxPort) && mailboxPort > 0 && mailboxPort < 65536)
) {
  console.error(`gpufleet: --mailbox-port must be a port number, not ${values["mailbox-port"]}`);
  process.exit(1);
}
const started = Date.now();
const seeded = await seedDemo(db, opts);
if (seeded) {
  console.log(`gpufleet: demo seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} else {
  const r = await reconcileDemo(db, opts);
  if (r === null) console.log("gpufleet: store has hosts but no demo hosts; demo seeding skipped");
  else {
    const changed = r.retargeted.length + r.added.length + r.retired.length + r.restored.length;
    console.log(
      changed === 0
        ? `gpufleet: demo fleet already matches the exporter (${hosts} hosts)`
        : `gpufleet: demo fleet matched to the exporter (${hosts} hosts) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
}
if (mailboxPort !== null) {
  const did = await pointDemoMailbox(db, mailboxPort, { create: seeded });
  if (did !== "absent") console.log(`gpufleet: demo: idle alerts are mailed to the demo mailbox`);
}
await db.$disconnect();
