// Seeds the demo fleet into an empty store (npm start runs it; safe to run again: it skips).
import { parseArgs } from "node:util";
import { db } from "../lib/db.ts";
import { seedDemo } from "../lib/demo/seed.ts";

const { values } = parseArgs({
  options: {
    exporter: { type: "string", default: "http://127.0.0.1:9445" },
    hosts: { type: "string", default: "24" },
  },
});
const started = Date.now();
const seeded = await seedDemo(db, {
  exporterBase: values.exporter,
  databaseUrl: process.env.DATABASE_URL ?? "file:./data/gpufleet.db",
  hosts: Number(values.hosts),
  now: new Date(),
  log: (m) => console.log(`gpufleet: demo: ${m}`),
});
console.log(
  seeded
    ? `gpufleet: demo seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`
    : "gpufleet: store already has hosts; demo seeding skipped",
);
await db.$disconnect();
