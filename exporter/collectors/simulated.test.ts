import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Source } from "../collect.ts";
import { resolveConfig, type ExporterOptions } from "../config.ts";
import { silentLogger } from "../log.ts";
import { parseListGpus } from "../nvidia/parse-xml.ts";
import { sample } from "../test/helpers.ts";
import { buildFleet } from "../sim/fleet.ts";
import { buildSource } from "../sources.ts";
import { renderGpuList } from "./simulated.ts";

const AT = Date.parse("2026-11-25T15:00:00.000Z"); // a weekday afternoon in us-east-1
const GOLDEN = new URL("../test/golden/", import.meta.url);

function simSource(opts: ExporterOptions): Source {
  return buildSource(
    resolveConfig({ simulate: true, logger: silentLogger, ...opts }),
    silentLogger,
  );
}

/** What varies between machines and runs, not between code versions. */
function normalize(text: string): string {
  return text
    .replace(
      /gpu_exporter_build_info\{[^}]*\}/,
      'gpu_exporter_build_info{version="V",node_version="N"}',
    )
    .replace(/(gpu_exporter_collector_duration_seconds\{[^}]*\}) .*/g, "$1 D");
}

describe("golden /metrics for --simulate --simulate.seed=42 at a fixed time", () => {
  // host 0: 8x A100 training; 3: a faulty H200 GPU; 9: V100 on driver 580;
  // 12: one MIG A100; 20: DGX with MIG and whole GPUs
  const cases: [host: number, compat: boolean][] = [
    [0, false],
    [0, true],
    [3, false],
    [9, false],
    [12, false],
    [20, false],
  ];
  it.each(cases)("host %i (compat=dcgm: %s)", async (id, compat) => {
    const src = simSource({ simulateHosts: 24, compat: compat ? "dcgm" : undefined });
    await src.tick(AT);
    const host = src.hosts[id];
    if (!host) throw new Error(`no host ${id}`);
    const text = normalize(await host.metrics.render(host.state.view(AT)));
    const file = new URL(`sim-seed42-host${id}${compat ? "-compat-dcgm" : ""}.prom`, GOLDEN);
    if (process.env.UPDATE_GOLDEN === "1") {
      mkdirSync(GOLDEN, { recursive: true });
      writeFileSync(file, text);
    }
    expect(text).toBe(readFileSync(file, "utf8"));
  });
});

describe("simulated source", () => {
  it("renders nvidia-smi -L so MIG profiles come through the real parser", () => {
    const fleet = buildFleet({ seed: 42, hosts: 24 });
    const dgx = fleet.hosts[20];
    if (!dgx) throw new Error("no DGX host");
    const list = parseListGpus(renderGpuList(dgx));
    for (const gpu of dgx.gpus) {
      const profiles = [...(list.get(gpu.uuid)?.values() ?? [])];
      expect(profiles).toEqual((gpu.mig ?? []).map((m) => m.profile));
    }
  });

  it("reads DCGM profiling through the DCGM parser: the stuck loop is busy but SM-idle", async () => {
    const src = simSource({ simulateHosts: 24, compat: "dcgm" });
    await src.tick(AT);
    const render = async (id: number) => {
      const host = src.hosts[id];
      if (!host) throw new Error(`no host ${id}`);
      return host.metrics.render(host.state.view(AT));
    };
    // host 13: one A100 in a busy-wait; host 22: a hung 8-GPU job
    for (const id of [13, 22]) {
      const text = await render(id);
      const gpus = id === 13 ? ["0"] : ["0", "1", "2", "3", "4", "5", "6", "7"];
      for (const gpu of gpus) {
        expect(sample(text, "gpu_utilization_ratio", { gpu })).toBeGreaterThanOrEqual(0.99);
        expect(sample(text, "gpu_sm_active_ratio", { gpu })).toBeLessThan(0.02);
        expect(sample(text, "gpu_tensor_active_ratio", { gpu })).toBe(0);
        expect(sample(text, "DCGM_FI_PROF_SM_ACTIVE", { gpu })).toBeLessThan(0.02);
        expect(sample(text, "gpu_nvlink_tx_bytes_per_second", { gpu })).toBe(0);
      }
    }
    // host 0 trains: SM active well above the stuck ones; host 12 is MIG: no profiling at all
    expect(sample(await render(0), "gpu_sm_active_ratio", { gpu: "0" })).toBeGreaterThan(0.5);
    const mig = await render(12);
    expect(mig).not.toContain("gpu_sm_active_ratio");
    expect(mig).not.toContain("DCGM_FI_PROF_");
  });

  it("drops a GPU that stops reporting once it is stale, like a real one", async () => {
    const src = simSource({ simulateHosts: 4, intervalMs: 5000 });
    const host = src.hosts[3];
    if (!host) throw new Error("no host 3");
    // find an instant where the faulty GPU is off the bus, scanning a day in 5-minute steps
    let off: number | undefined;
    for (let t = AT; t < AT + 86_400_000 && off === undefined; t += 300_000) {
      await src.tick(t);
      if (host.state.view(t).gpus.length === 8) {
        await src.tick(t + 300_000);
        if (host.state.view(t + 300_000).gpus.length < 8) off = t + 300_000;
      }
    }
    expect(off).toBeDefined();
  });

  // how fast is measured by `npm run bench:exporter`, not asserted here (a loaded machine is slow)
  it("collects 1,000 hosts (~8,000 GPUs), every host's collector succeeding", async () => {
    const src = simSource({ simulateHosts: 1000 });
    const gpus = () => src.hosts.reduce((n, h) => n + h.state.view(AT).gpus.length, 0);
    await src.tick(AT); // warm-up, includes the MIG snapshot of every MIG host
    await src.tick(AT + 5000);
    expect(gpus()).toBeGreaterThan(7000);
    expect(src.hosts.every((h) => h.state.collectors.get("simulated")?.success)).toBe(true);
  }, 60_000);
});
