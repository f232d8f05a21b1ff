import { describe, expect, it } from "vitest";
import { buildFleet } from "./fleet.ts";
import { GPU_MODELS, gpuModel } from "./gpu-models.ts";
import { trainingLoad, type Keys } from "./load.ts";
import { profilingFor, STUCK_SM_ACTIVE_MAX, TRAINING_SM_PER_UTIL } from "./profiling.ts";
import { sampleGpu } from "./sample.ts";
import { DEMO_AT } from "./testing.ts";
import type { SimGpuSample, SimGpuSpec, SimHostSpec, WorkloadProfile } from "./types.ts";

const fleet = buildFleet({ seed: 42, hosts: 24 });
const DAY_START = Date.UTC(2026, 10, 25); // a Wednesday
const EPS = 1e-6; // ratios are rounded to 6 decimals, as dcgm-exporter prints them

function gpusOf(profile: WorkloadProfile): { host: SimHostSpec; gpu: SimGpuSpec }[] {
  return fleet.hosts.flatMap((host) =>
    host.gpus.filter((g) => g.profile === profile).map((gpu) => ({ host, gpu })),
  );
}

/** samples every `step` minutes over the demo day */
function overDay(host: SimHostSpec, gpu: SimGpuSpec, step = 13): SimGpuSample[] {
  const out: SimGpuSample[] = [];
  for (let m = 0; m < 1440; m += step) {
    out.push(sampleGpu(fleet, host, gpu, new Date(DAY_START + m * 60_000)));
  }
  return out;
}

function prof(s: SimGpuSample) {
  if (!s.profiling) throw new Error("expected profiling fields");
  return s.profiling;
}

describe("simulated DCGM profiling agrees with the load", () => {
  it("training: SM active 0.6-0.9 of utilization, tensor busy, DRAM moderate, NVLink on 8-GPU SXM hosts", () => {
    const training = gpusOf("training");
    expect(training.length).toBeGreaterThan(40);
    const [lo, hi] = TRAINING_SM_PER_UTIL;
    for (const { host, gpu } of training) {
      for (const s of overDay(host, gpu, 37)) {
        const u = (s.utilizationGpu ?? 0) / 100;
        const p = prof(s);
        expect(p.smActive).toBeGreaterThanOrEqual(u * lo - EPS);
        expect(p.smActive).toBeLessThanOrEqual(u * hi + EPS);
        expect(p.tensorActive).toBeGreaterThanOrEqual(p.smActive * 0.55 - EPS);
        expect(p.smOccupancy).toBeLessThan(p.smActive + EPS);
        expect(p.dramActive).toBeGreaterThanOrEqual(u * 0.3 - EPS);
        expect(p.dramActive).toBeLessThanOrEqual(u * 0.52 + EPS);
        expect(Math.abs(p.grEngineActive - u)).toBeLessThanOrEqual(0.03 * u + EPS);
        const model = gpuModel(gpu.name);
        if (model.nvlinkGBps === null) expect(p.nvlinkTxBytesPerSecond).toBeUndefined();
        else if (host.gpus.length > 1 && u > 0.9) {
          expect(p.nvlinkTxBytesPerSecond).toBeGreaterThan(0.1 * model.nvlinkGBps * 1e9);
          expect(p.nvlinkRxBytesPerSecond).toBeGreaterThan(0.1 * model.nvlinkGBps * 1e9);
        }
      }
    }
  });

  it("inference: SM active bursts with utilization (correlation > 0.9 over a day)", () => {
    const [first] = gpusOf("inference");
    if (!first) throw new Error("no inference GPU");
    const day = overDay(first.host, first.gpu, 5);
    const u = day.map((s) => (s.utilizationGpu ?? 0) / 100);
    const sm = day.map((s) => prof(s).smActive);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const [mu, ms] = [mean(u), mean(sm)];
    const cov = mean(u.map((x, i) => (x - mu) * ((sm[i] ?? 0) - ms)));
    const sd = (xs: number[], m: number) => Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
    expect(cov / (sd(u, mu) * sd(sm, ms))).toBeGreaterThan(0.9);
    for (let i = 0; i < day.length; i++) expect(sm[i]).toBeLessThanOrEqual((u[i] ?? 0) * 0.66);
    expect(Math.max(...sm)).toBeGreaterThan(0.2); // busy hours do show up
  });

  it("idle: nothing active, PCIe only the driver's background traffic", () => {
    for (const { host, gpu } of [...gpusOf("empty_idle"), ...gpusOf("held_idle")]) {
      for (const s of overDay(host, gpu, 97)) {
        const p = prof(s);
        expect(p.smActive).toBeLessThanOrEqual(0.006 + EPS);
        expect(p.tensorActive).toBe(0);
        expect(p.pcieTxBytesPerSecond).toBeLessThan(180_000);
        expect(p.pcieRxBytesPerSecond).toBeLessThan(35_000);
        expect(p.nvlinkTxBytesPerSecond ?? 0).toBe(0);
        if (gpu.profile === "empty_idle") expect(p.grEngineActive).toBe(0);
      }
    }
  });

  it("stuck loop: a fixed set of demo GPUs reads ~100 % busy with SM active near 0", () => {
    const stuck = gpusOf("stuck_loop");
    expect(stuck.map(({ host, gpu }) => `${host.id}/${gpu.index}`)).toEqual([
      "13/0",
      ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => `22/${i}`),
    ]);
    for (const { host, gpu } of stuck) {
      for (const s of overDay(host, gpu, 17)) {
        const p = prof(s);
        expect(s.utilizationGpu).toBeGreaterThanOrEqual(99);
        expect(p.grEngineActive).toBeGreaterThan(0.95);
        expect(p.smActive).toBeGreaterThan(0);
        expect(p.smActive).toBeLessThanOrEqual(STUCK_SM_ACTIVE_MAX);
        expect(p.smActive).toBeLessThan(0.02);
        expect(p.tensorActive).toBe(0);
        expect(p.nvlinkTxBytesPerSecond).toBe(0); // the hung collective moves nothing
        expect(s.processes).toHaveLength(1); // the job still holds its memory
        expect(s.memoryUsedMiB).toBeGreaterThan(gpu.memoryTotalMiB * 0.7);
        expect(s.powerDrawW).toBeLessThan(gpu.powerLimitW * 0.35);
      }
    }
  });

  it("MIG GPUs and models without profiling report none", () => {
    for (const { host, gpu } of gpusOf("mig")) {
      expect(sampleGpu(fleet, host, gpu, DEMO_AT).profiling).toBeUndefined();
    }
    // every simulated model is a datacenter part with DCGM profiling; a GeForce board has none
    expect(GPU_MODELS.every((m) => m.profiling && !m.name.includes("GeForce"))).toBe(true);
    const host = fleet.hosts[0];
    const gpu = host?.gpus[0];
    if (!host || !gpu) throw new Error("no host 0");
    const keys: Keys = { host: 1, gpu: 2, minute: 3, second: 4, usableMiB: 40000, baseMiB: 2 };
    const load = trainingLoad(keys, gpu);
    const model = gpuModel(gpu.name);
    expect(profilingFor(model, host, gpu, keys, load)).toBeDefined();
    expect(profilingFor({ ...model, profiling: false }, host, gpu, keys, load)).toBeUndefined();
  });

  it("NVLink only on SXM parts: 0 without a peer, absent on PCIe boards", () => {
    const byHost = (id: number) => {
      const host = fleet.hosts[id];
      const gpu = host?.gpus[0];
      if (!host || !gpu) throw new Error(`no host ${id}`);
      return prof(sampleGpu(fleet, host, gpu, DEMO_AT));
    };
    expect(byHost(0).nvlinkTxBytesPerSecond).toBeGreaterThan(0); // 8x A100 SXM, training
    expect(byHost(13).nvlinkTxBytesPerSecond).toBe(0); // 1x A100 SXM
    expect(byHost(4).nvlinkTxBytesPerSecond).toBeUndefined(); // A10G
  });

  it("is deterministic in seed and time", () => {
    const host = fleet.hosts[0];
    const gpu = host?.gpus[3];
    if (!host || !gpu) throw new Error("no host 0");
    const again = buildFleet({ seed: 42, hosts: 24 });
    expect(sampleGpu(again, host, gpu, DEMO_AT).profiling).toEqual(
      sampleGpu(fleet, host, gpu, DEMO_AT).profiling,
    );
    const other = buildFleet({ seed: 7, hosts: 24 });
    const otherHost = other.hosts[0];
    const otherGpu = otherHost?.gpus[3];
    if (!otherHost || !otherGpu) throw new Error("no host 0");
    expect(sampleGpu(other, otherHost, otherGpu, DEMO_AT).profiling).not.toEqual(
      sampleGpu(fleet, host, gpu, DEMO_AT).profiling,
    );
  });
});
