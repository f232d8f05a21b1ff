import { describe, expect, it } from "vitest";
import { buildFleet } from "./fleet.ts";
import { gpuModel } from "./gpu-models.ts";
import { localTime } from "./load.ts";
import { sampleGpu, sampleHost } from "./sample.ts";
import { DEMO_AT } from "./testing.ts";
import type { SimGpuSample, SimGpuSpec, SimHostSpec, WorkloadProfile } from "./types.ts";

const fleet = buildFleet({ seed: 42, hosts: 24 });
const MIN = 60_000;
const DAY_START = Date.UTC(2026, 10, 25); // a Wednesday

function first(profile: WorkloadProfile): { host: SimHostSpec; gpu: SimGpuSpec } {
  for (const host of fleet.hosts) {
    const gpu = host.gpus.find((g) => g.profile === profile);
    if (gpu) return { host, gpu };
  }
  throw new Error(`no ${profile} GPU in the demo fleet`);
}

function overDay(profile: WorkloadProfile, start = DAY_START) {
  const { host, gpu } = first(profile);
  const out: { at: number; s: SimGpuSample }[] = [];
  for (let m = 0; m < 1440; m++) {
    out.push({ at: start + m * MIN, s: sampleGpu(fleet, host, gpu, new Date(start + m * MIN)) });
  }
  return { host, gpu, day: out };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

describe("sampleGpu: determinism", () => {
  it("returns identical samples for the same inputs, in any order of calls", () => {
    const { host, gpu } = first("inference");
    const a = sampleGpu(fleet, host, gpu, DEMO_AT);
    sampleGpu(fleet, host, gpu, new Date(DEMO_AT.getTime() - 60 * 86_400_000));
    const rebuilt = buildFleet({ seed: 42, hosts: 24 });
    expect(sampleGpu(rebuilt, host, gpu, new Date(DEMO_AT))).toEqual(a);
    expect(sampleHost(fleet, host, DEMO_AT)).toEqual(sampleHost(rebuilt, host, DEMO_AT));
  });

  it("depends on the seed", () => {
    const other = buildFleet({ seed: 43, hosts: 24 });
    const { host, gpu } = first("training");
    const a = sampleHost(fleet, host, DEMO_AT).map((s) => s.memoryUsedMiB);
    const b = sampleHost(other, host, DEMO_AT).map((s) => s.memoryUsedMiB);
    expect(a).not.toEqual(b);
    expect(gpu.profile).toBe("training");
  });
});

describe("sampleGpu: physics holds for every demo GPU over a day", () => {
  it("keeps power, clocks, temperature and memory within the board's limits", () => {
    for (let m = 0; m < 1440; m += 37) {
      const at = new Date(DAY_START + m * MIN);
      for (const host of fleet.hosts) {
        for (const gpu of host.gpus) {
          const s = sampleGpu(fleet, host, gpu, at);
          const model = gpuModel(gpu.name);
          expect(s.powerDrawW).toBeGreaterThan(0);
          expect(s.powerDrawW).toBeLessThanOrEqual(gpu.powerLimitW);
          expect(s.smClockMHz).toBeLessThanOrEqual(model.clocks.smMax);
          expect(s.smClockMHz).toBeGreaterThanOrEqual(model.clocks.smIdle);
          expect([model.clocks.memIdle, model.clocks.memMax]).toContain(s.memClockMHz);
          expect(s.temperatureC).toBeGreaterThanOrEqual(20);
          expect(s.temperatureC).toBeLessThanOrEqual(90);
          expect(s.memoryUsedMiB).toBeLessThanOrEqual(
            gpu.memoryTotalMiB - model.memory.reservedMiB,
          );
          const procs = s.processes.reduce((a, p) => a + p.usedMemoryMiB, 0);
          expect(procs).toBeLessThanOrEqual(s.memoryUsedMiB);
          if ((s.utilizationGpu ?? 0) > 3) expect(s.pstate).toBe(0);
          if (s.pstate === 8) expect(s.processes).toHaveLength(0);
          for (const p of s.processes) expect(p.gpuUuid).toBe(gpu.uuid);
        }
      }
    }
  });

  it("keeps each GPU's pids stable within an hour", () => {
    for (const profile of ["training", "inference", "held_idle", "mig"] as const) {
      const { day } = overDay(profile);
      for (let h = 0; h < 24; h++) {
        const hour = day.slice(h * 60, h * 60 + 60);
        const pids = new Set(hour.map(({ s }) => s.processes.map((p) => p.pid).join(",")));
        expect(pids.size).toBe(1);
      }
    }
  });
});

describe("sampleGpu: profiles over a simulated day", () => {
  it("training: 90-100 % with short checkpoint dips, most memory, one process", () => {
    const { gpu, day } = overDay("training");
    const utils = day.map(({ s }) => s.utilizationGpu ?? -1);
    const steady = utils.filter((u) => u >= 90 && u <= 100).length;
    expect(steady / utils.length).toBeGreaterThan(0.93);
    expect(steady).toBeLessThan(utils.length); // dips happen
    for (const { s } of day) {
      expect(s.processes).toHaveLength(1);
      expect(s.memoryUsedMiB / gpu.memoryTotalMiB).toBeGreaterThan(0.75);
      expect(s.pstate).toBe(0);
    }
  });

  it("inference: busy in local working hours, quiet at night, lower at weekends", () => {
    const { host, day } = overDay("inference");
    const at = (from: number, to: number) =>
      day
        .filter(({ at: t }) => {
          const h = localTime(host, Math.floor(t / MIN)).hour;
          return h >= from && h < to;
        })
        .map(({ s }) => s.utilizationGpu ?? 0);
    expect(mean(at(9, 19))).toBeGreaterThan(40);
    expect(mean(at(0, 6))).toBeLessThan(15);
    const weekend = overDay("inference", Date.UTC(2026, 10, 28)).day; // Saturday
    const busyWeekend = weekend.filter(({ at: t }) => {
      const h = localTime(host, Math.floor(t / MIN)).hour;
      return h >= 9 && h < 19;
    });
    expect(mean(busyWeekend.map(({ s }) => s.utilizationGpu ?? 0))).toBeLessThan(mean(at(9, 19)));
    for (const { s } of day) expect(s.processes).toHaveLength(1);
  });

  it("held_idle: SM 0-2 %, a process holding most of the memory", () => {
    const { gpu, day } = overDay("held_idle");
    for (const { s } of day) {
      expect(s.utilizationGpu).toBeGreaterThanOrEqual(0);
      expect(s.utilizationGpu).toBeLessThanOrEqual(2);
      expect(s.processes).toHaveLength(1);
      expect(s.memoryUsedMiB / gpu.memoryTotalMiB).toBeGreaterThan(0.6);
    }
  });

  it("empty_idle: 0 %, no process, ~0 MiB used, idle clocks", () => {
    const { gpu, day } = overDay("empty_idle");
    const model = gpuModel(gpu.name);
    for (const { s } of day) {
      expect(s.utilizationGpu).toBe(0);
      expect(s.processes).toHaveLength(0);
      expect(s.memoryUsedMiB).toBeLessThanOrEqual(5);
      expect(s.smClockMHz).toBe(model.clocks.smIdle);
      expect(s.pstate).toBe(model.idlePstate);
    }
  });

  it("mig: utilization N/A, per-instance memory within each slice", () => {
    const { gpu, day } = overDay("mig");
    const mig = gpu.mig ?? [];
    for (const { s } of day) {
      expect(s.utilizationGpu).toBeNull();
      expect(s.utilizationMemory).toBeNull();
      const used = s.migMemoryUsedMiB ?? {};
      expect(Object.keys(used).map(Number).sort()).toEqual(mig.map((m) => m.gpuInstanceId).sort());
      for (const m of mig) {
        expect(used[m.gpuInstanceId]).toBeGreaterThanOrEqual(12);
        expect(used[m.gpuInstanceId]).toBeLessThanOrEqual(m.memoryTotalMiB);
      }
      expect(Object.values(used).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(s.memoryUsedMiB);
    }
  });

  it("faulty: drops off for a few 10-30 minute windows a day", () => {
    const { day } = overDay("faulty");
    const runs: number[] = [];
    let run = 0;
    for (const { s } of day) {
      if (!s.reporting) {
        run++;
      } else if (run > 0) {
        runs.push(run);
        run = 0;
      }
    }
    if (run > 0) runs.push(run);
    expect(runs.length).toBeGreaterThanOrEqual(1);
    expect(runs.length).toBeLessThanOrEqual(4);
    for (const r of runs) expect(r).toBeGreaterThanOrEqual(10);
    expect(runs.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(120);
    const reporting = day.filter(({ s }) => s.reporting).map(({ s }) => s.utilizationGpu ?? 0);
    expect(mean(reporting)).toBeGreaterThan(85);
  });

  it("faulty: ECC counters only rise, uncorrected ones within 60 days", () => {
    const { host, gpu } = first("faulty");
    let prev = { c: 0, u: 0 };
    const start = DEMO_AT.getTime() - 60 * 86_400_000;
    for (let h = 0; h <= 60 * 24; h += 6) {
      const s = sampleGpu(fleet, host, gpu, new Date(start + h * 3_600_000));
      expect(s.eccCorrected).toBeGreaterThanOrEqual(prev.c);
      expect(s.eccUncorrected).toBeGreaterThanOrEqual(prev.u);
      prev = { c: s.eccCorrected, u: s.eccUncorrected };
    }
    const first60 = sampleGpu(fleet, host, gpu, new Date(start));
    const last = sampleGpu(fleet, host, gpu, DEMO_AT);
    expect(last.eccUncorrected).toBeGreaterThan(first60.eccUncorrected);
    expect(last.eccCorrected - first60.eccCorrected).toBeGreaterThan(100);
    const healthy = first("training");
    expect(sampleGpu(fleet, healthy.host, healthy.gpu, DEMO_AT).eccUncorrected).toBe(0);
  });

  it("is cheap enough to backfill 60 days of history", () => {
    const { host } = first("training");
    const started = performance.now();
    for (let m = 0; m < 20_000; m++) sampleHost(fleet, host, new Date(DAY_START + m * MIN));
    const perSample = (performance.now() - started) / (20_000 * host.gpus.length);
    expect(perSample).toBeLessThan(0.05); // ms
  });
});
