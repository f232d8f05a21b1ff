// `npm run bench:pricing-upload`: what parsing price-list uploads costs the request thread. Eight
// 16 MiB hostile uploads (issue 23: `{"offerCode":"AmazonEC2","products":{"x":[[[[…`) and two
// 16 MiB valid Tencent templates (about 120,000 rows each), parsed as the upload route parses them
// (parseOffThread: worker threads, two at a time) and, for comparison, on this thread
// (parseImport, as the route did before). A 10 ms timer measures how late this thread's event
// loop answers meanwhile (what /api/health and the collector would wait); prints the max and p99
// delay and the wall time per case. Nothing is asserted.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseImport } from "../lib/pricing/import/parse.ts";
import { parseOffThread } from "../lib/pricing/import/parse-off-thread.ts";
import type { ImportProvider } from "../lib/pricing/import/types.ts";

const MIB = 1024 * 1024;
const HEAD = '{"offerCode":"AmazonEC2","products":{"x":';
const hostile = Buffer.from(HEAD + "[".repeat(16 * MIB - HEAD.length));

const header =
  "provider,instance_type,region,pricing_model,gpu_model,gpu_count,gpu_memory_gib,price_per_hour,currency,effective_from,source_url,source_date\n";
const lines: string[] = [header];
let size = header.length;
for (let i = 0; size < 16 * MIB - 200; i++) {
  const line = `tencent,GN7.T${i},ap-guangzhou,on_demand,T4,1,16,1.26,USD,2026-11-01,https://intl.cloud.tencent.com/document/product/560,2026-11\n`;
  lines.push(line);
  size += line.length;
}
const valid = Buffer.from(lines.join(""));

type Job = { provider: ImportProvider; bytes: Buffer };
const jobs = {
  hostile: Array.from({ length: 8 }, (): Job => ({ provider: "aws", bytes: hostile })),
  valid: Array.from({ length: 2 }, (): Job => ({ provider: "tencent", bytes: valid })),
};

async function measure(label: string, run: () => Promise<unknown>): Promise<void> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  let late = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    late = Math.max(late, now - last - 10);
    last = now;
  }, 10);
  h.enable();
  const started = performance.now();
  const outcome = await run().then(
    () => "parsed",
    (e: unknown) => (e instanceof Error ? e.message.slice(0, 70) : String(e)),
  );
  const wall = performance.now() - started;
  // one more turn of the loop, so a delay that lasted until the end is recorded too
  await new Promise((resolve) => setTimeout(resolve, 50));
  h.disable();
  clearInterval(probe);
  console.log(
    `| ${label} | ${(wall / 1000).toFixed(2)} s | ${Math.max(late, h.max / 1e6).toFixed(0)} ms | ${(h.percentile(99) / 1e6).toFixed(0)} ms | ${outcome} |`,
  );
}

const settle = (ps: Promise<unknown>[]) =>
  Promise.allSettled(ps).then((r) => {
    const failed = r.find((x) => x.status === "rejected");
    if (failed && failed.status === "rejected") throw failed.reason;
  });

console.log(`valid template: ${(valid.length / MIB).toFixed(1)} MiB, ${lines.length - 1} rows\n`);
console.log("| case | wall | max event-loop delay | p99 delay | outcome |");
console.log("| --- | --- | --- | --- | --- |");
for (const [kind, list] of Object.entries(jobs)) {
  const n = list.length;
  await measure(`${n} × 16 MiB ${kind}, worker threads (the route)`, () =>
    settle(list.map((j, i) => parseOffThread({ ...j, name: `${kind}${i}`, opts: {} }))),
  );
  await measure(`${n} × 16 MiB ${kind}, request thread (as the route parsed before)`, () =>
    settle(
      list.map((j, i) => parseImport(j.provider, [{ name: `${kind}${i}`, source: [j.bytes] }])),
    ),
  );
}
