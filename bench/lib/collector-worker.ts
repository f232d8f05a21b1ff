// The app's embedded collector alone, for the CPU benchmark: scrapes the targets file's exporters
// every interval into its own store, printing one JSON line per tick. Started with
// `node --conditions=react-server --import tsx bench/lib/collector-worker.ts <db url> <targets> <s>`.
import { embeddedBackend } from "../../lib/metrics/backend.ts";
import { readFileSync } from "node:fs";
import { createCollector } from "../../lib/jobs/loop.ts";
import { createDb } from "../../lib/db.ts";

const [url, targetsFile, interval] = process.argv.slice(2);
if (!url || !targetsFile) throw new Error("usage: collector-worker.ts <db url> <targets file> [s]");
const intervalS = Number(interval ?? 5);
const targets = (
  JSON.parse(readFileSync(targetsFile, "utf8")) as Array<{ targets: string[] }>
).reduce((n, g) => n + g.targets.length, 0);
const db = createDb(url);
const collector = createCollector(db, {
  intervalS,
  metrics: embeddedBackend(db, intervalS),
  scrapeTimeoutMs: 5000,
  scrapeConcurrency: 32,
  retentionDays: 7,
  targetsFile,
  autoStart: false,
  log: (m) => console.error(`[collector] ${m}`),
});

for (let tick = 0; ; tick++) {
  const started = Date.now();
  await collector.tick();
  const ms = Date.now() - started;
  process.stdout.write(`${JSON.stringify({ tick, at: Date.now(), scrapes: targets, ms })}\n`);
  await new Promise((r) => setTimeout(r, Math.max(0, intervalS * 1000 - ms)));
}
