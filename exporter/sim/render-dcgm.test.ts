import { describe, expect, it } from "vitest";
import { applySimProfiling } from "../collectors/simulated.ts";
import { mapDcgm } from "../dcgm/map.ts";
import { parsePrometheusText } from "../dcgm/parse-text.ts";
import { PROFILING_KEYS, type GpuReading } from "../readings.ts";
import { buildFleet } from "./fleet.ts";
import { renderDcgmProfiling } from "./render-dcgm.ts";
import { sampleHost } from "./sample.ts";
import { DEMO_AT, fixture } from "./testing.ts";

const fleet = buildFleet({ seed: 42, hosts: 24 });

describe("renderDcgmProfiling", () => {
  it("round-trips every demo GPU's profiling through the DCGM parser and mapping", () => {
    const pick = (g: GpuReading | undefined) =>
      Object.fromEntries(PROFILING_KEYS.map((k) => [k, g?.[k]]));
    let gpus = 0;
    for (const host of fleet.hosts) {
      const samples = sampleHost(fleet, host, DEMO_AT);
      const parsed = parsePrometheusText(renderDcgmProfiling(host, samples));
      expect(parsed.warnings).toEqual([]);
      const mapped = mapDcgm(parsed.items);
      expect(mapped.warnings).toEqual([]);
      const byUuid = new Map(mapped.gpus.map((g) => [g.uuid, g]));
      host.gpus.forEach((gpu, i) => {
        const p = samples[i]?.profiling;
        const g = byUuid.get(gpu.uuid);
        if (!p || !samples[i]?.reporting) return expect(g).toBeUndefined();
        gpus++;
        expect(g).toMatchObject({
          index: gpu.index,
          name: gpu.name,
          pciBusId: gpu.pciBusId,
          driverVersion: host.driverVersion,
          smActiveRatio: p.smActive,
          smOccupancyRatio: p.smOccupancy,
          tensorActiveRatio: p.tensorActive,
          dramActiveRatio: p.dramActive,
          graphicsEngineActiveRatio: p.grEngineActive,
          pcieTxBytesPerSecond: p.pcieTxBytesPerSecond,
          pcieRxBytesPerSecond: p.pcieRxBytesPerSecond,
        });
        expect(g?.nvlinkTxBytesPerSecond).toBe(p.nvlinkTxBytesPerSecond);
        expect(g?.nvlinkRxBytesPerSecond).toBe(p.nvlinkRxBytesPerSecond);
        // the simulated source copies the samples directly: it must read the same
        const direct: GpuReading = { index: gpu.index, uuid: gpu.uuid, clockEvents: {} };
        applySimProfiling(direct, p);
        expect(pick(direct)).toEqual(pick(g));
      });
    }
    expect(gpus).toBeGreaterThan(90); // all but the MIG GPUs
  });

  it("prints lines shaped like a real dcgm-exporter's, and nothing for a MIG-only host", () => {
    const host = fleet.hosts[6]; // g4dn.xlarge: one T4, like the ECCD capture
    if (!host) throw new Error("no host 6");
    const text = renderDcgmProfiling(host, sampleHost(fleet, host, DEMO_AT));
    const shape = (line: string) =>
      line
        .replace(/\{.*\}/, "{}")
        .replace(/ \d+\.\d{6}$/, " RATIO")
        .replace(/ \d+$/, " INT");
    const real = fixture("dcgm-exporter-prof-tesla-t4-590-eccd.prom")
      .split("\n")
      .filter((l) => l.startsWith("DCGM_FI_PROF_"));
    const ours = text.split("\n").filter((l) => l.startsWith("DCGM_FI_PROF_"));
    for (const line of real) expect(ours.map(shape)).toContain(shape(line));
    const labelNames = (line: string) => [...line.matchAll(/(\w+)="/g)].map((m) => m[1]);
    expect(labelNames(ours[0] ?? "")).toEqual(labelNames(real[0] ?? ""));
    const mig = fleet.hosts[12]; // one A100 in MIG mode
    if (!mig) throw new Error("no host 12");
    expect(renderDcgmProfiling(mig, sampleHost(fleet, mig, DEMO_AT))).toBe("");
  });
});
