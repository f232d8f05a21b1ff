import { mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../log.ts";
import { startExporter, type RunningExporter } from "../server.ts";
import { HAVE_PROMTOOL, own, promtool, sample } from "../test/helpers.ts";

let dir: string;
let server: Server;
let base: string;
let e: RunningExporter;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "gpufleet-work-e2e-"));
  server = createServer((req, res) => {
    if (req.url === "/hang") return; // a hung inference server
    res.writeHead(200, { "content-type": "text/plain" }).end(own("work/vllm-qwen3-0.6b.prom"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  writeFileSync(join(dir, "finetune.prom.tmp"), 'gpufleet_work_units_total{unit="samples"} 4200\n');
  renameSync(join(dir, "finetune.prom.tmp"), join(dir, "finetune.prom"));
  writeFileSync(join(dir, "broken.prom"), 'gpufleet_work_units_total{unit="samples" 1\n');
  e = await startExporter({
    listenAddress: "127.0.0.1:0",
    simulate: true,
    simulateHosts: 1,
    intervalMs: 600_000, // ticks only when the test says (e.tick())
    work: { textfileDir: dir, scrape: [`${base}/metrics`, `${base}/hang`], scrapeTimeoutMs: 500 },
    logger: silentLogger,
  });
});
afterAll(async () => {
  await e.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const metrics = async () => (await fetch(`${e.url}/metrics`)).text();

describe("work counters on a running exporter", () => {
  it("serves textfile and relayed work beside the GPU metrics; bad inputs only counted", async () => {
    const text = await metrics();
    const job = base.slice("http://".length);
    expect(
      sample(text, "gpufleet_work_units_total", {
        unit: "samples",
        job: "finetune",
        model_name: "",
        source: "textfile",
      }),
    ).toBe(4200);
    expect(
      sample(text, "gpufleet_work_units_total", {
        unit: "output_tokens",
        model_name: "Qwen/Qwen3-0.6B",
        job,
        source: "vllm",
      }),
    ).toBe(4874);
    // the simulated host 0 trains: its own job's samples come as a textfile's would
    expect(
      sample(text, "gpufleet_work_units_total", { job: "llm-pretrain", source: "textfile" }),
    ).toBeGreaterThan(0);
    expect(sample(text, "gpufleet_exporter_textfile_scrape_error")).toBe(1);
    expect(
      sample(text, "gpufleet_exporter_textfile_mtime_seconds", { file: "broken.prom" }),
    ).toBeGreaterThan(0);
    expect(sample(text, "gpufleet_exporter_work_target_up", { target: `${base}/hang` })).toBe(0);
    expect(sample(text, "gpufleet_exporter_work_target_up", { target: `${base}/metrics` })).toBe(1);
    expect(
      sample(text, "gpufleet_exporter_work_errors_total", {
        collector: "relay",
        reason: "timeout",
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, "gpufleet_exporter_work_errors_total", {
        collector: "textfile",
        reason: "parse",
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, "gpu_exporter_collector_success", { collector: "textfile" })).toBe(1);
    expect(sample(text, "gpu_exporter_collector_success", { collector: "simulated" })).toBe(1);
    expect(sample(text, "gpu_utilization_ratio", { gpu: "0" })).toBeGreaterThan(0);
    if (HAVE_PROMTOOL) expect(promtool(text).problems).toEqual([]);
  });

  it("reads files once per tick, not per scrape; a deleted file is gone after the next tick", async () => {
    const renders = e.hosts[0]?.metrics.renders;
    await metrics();
    await metrics();
    expect(e.hosts[0]?.metrics.renders).toBe(renders);
    unlinkSync(join(dir, "finetune.prom"));
    expect(await metrics()).toContain('job="finetune"'); // still the last tick's reading
    await e.tick();
    const text = await metrics();
    expect(text).not.toContain('job="finetune"');
    expect(text).toContain('job="llm-pretrain"');
  });
});
