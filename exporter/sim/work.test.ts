import { describe, expect, it } from "vitest";
import { buildFleet } from "./fleet.ts";
import { sampleGpu } from "./sample.ts";
import { pyFloat, renderSimVllm, simWorkPart, simWorkload } from "./work.ts";

const fleet = buildFleet({ seed: 42, hosts: 24 });
const host = (id: number) => {
  const h = fleet.hosts[id];
  if (!h) throw new Error(`no host ${id}`);
  return h;
};
const AT = Date.parse("2026-11-25T15:00:00.000Z"); // a Wednesday
const units = (id: number, ms: number) =>
  Object.fromEntries(simWorkPart(fleet, host(id), ms).series.map((s) => [s.unit, s.value]));

describe("simulated work", () => {
  it("serves a model chosen by the GPU: Qwen3-8B on L4 and A10G, a Llama on H100", () => {
    expect(simWorkload(host(4))).toMatchObject({ kind: "vllm", model: "Qwen/Qwen3-8B" }); // g5
    expect(simWorkload(host(8))).toMatchObject({ kind: "vllm", model: "Qwen/Qwen3-8B" }); // g6
    expect(simWorkload(host(21))).toMatchObject({
      kind: "vllm",
      model: "meta-llama/Llama-3.3-70B-Instruct",
      servingGpus: 6,
    });
    expect(simWorkload(host(0))).toEqual({
      kind: "textfile",
      job: "llm-pretrain",
      unit: "samples",
      gpus: 8,
    });
    // an empty V100 box and a hung job do no work
    expect(simWorkload(host(9))).toBeUndefined();
    expect(simWorkload(host(22))).toBeUndefined();
    const served = simWorkPart(fleet, host(4), AT).series;
    expect(served.map((s) => [s.unit, s.source, s.modelName, s.job])).toEqual([
      ["prompt_tokens", "vllm", "Qwen/Qwen3-8B", "127.0.0.1:8000"],
      ["output_tokens", "vllm", "Qwen/Qwen3-8B", "127.0.0.1:8000"],
      ["requests", "vllm", "Qwen/Qwen3-8B", "127.0.0.1:8000"],
    ]);
    expect(simWorkPart(fleet, host(0), AT).series[0]).toMatchObject({
      unit: "samples",
      source: "textfile",
    });
  });

  it("is a pure function of (seed, host, time)", () => {
    expect(simWorkPart(fleet, host(8), AT)).toEqual(
      simWorkPart(buildFleet({ seed: 42, hosts: 24 }), host(8), AT),
    );
  });

  it("gives the same counts tick after tick as computed afresh (its hourly memo only saves time)", () => {
    for (const id of [4, 0, 21]) {
      for (let t = AT; t <= AT + 3 * 86_400_000; t += 1_800_000) {
        const fresh = simWorkPart(fleet, structuredClone(host(id)), t);
        expect(simWorkPart(fleet, host(id), t)).toEqual(fresh);
      }
    }
  });

  it("counts up between restarts and starts again from zero at a redeploy", () => {
    for (const id of [4, 0]) {
      const unit = id === 0 ? "samples" : "output_tokens";
      let prev = units(id, AT)[unit] ?? 0;
      let resets = 0;
      for (let t = AT + 600_000; t <= AT + 4 * 86_400_000; t += 600_000) {
        const v = units(id, t)[unit] ?? 0;
        if (v < prev) {
          resets++;
          // at most an hour's work since the restart
          expect(v).toBeLessThan(prev / 10);
        }
        prev = v;
      }
      expect(resets).toBeGreaterThanOrEqual(1);
      expect(resets).toBeLessThanOrEqual(id === 0 ? 4 : 5);
    }
  });

  it("serves tokens in proportion to the GPUs' load, scaled by the GPU model", () => {
    // tokens/s over an hour against the mean utilization the same GPU reports in that hour
    const check = (id: number, perGpuPeak: number, startMs: number) => {
      const h = host(id);
      const gpu = h.gpus[0];
      if (!gpu) throw new Error(`host ${id} has no GPU`);
      let util = 0;
      for (let m = 0; m < 60; m++) {
        util += (sampleGpu(fleet, h, gpu, new Date(startMs + m * 60_000)).utilizationGpu ?? 0) / 60;
      }
      const a = units(id, startMs).output_tokens ?? 0;
      const b = units(id, startMs + 3_600_000 - 1000).output_tokens ?? 0;
      const perSecond = (b - a) / 3599;
      expect(perSecond).toBeGreaterThan((perGpuPeak * util * 0.8) / 100);
      expect(perSecond).toBeLessThan((perGpuPeak * util * 1.2) / 100);
      return perSecond;
    };
    // us-east-1, Tuesday 2026-11-24: 14:00 local (19:00 UTC) busy, 03:00 local (08:00 UTC) quiet
    const day = Date.parse("2026-11-24T19:00:00Z");
    const night = Date.parse("2026-11-24T08:00:00Z");
    const a10gDay = check(4, 1500, day);
    const a10gNight = check(4, 1500, night);
    expect(a10gDay).toBeGreaterThan(3 * a10gNight);
    check(8, 1000, day); // L4 serves the same model slower
  });

  it("prints counters as vLLM does (Python floats; scientific notation from a million)", () => {
    expect(pyFloat(43952)).toBe("43952.0");
    expect(pyFloat(8_128_902)).toBe("8.128902e+06");
    expect(pyFloat(41_367_205)).toBe("4.1367205e+07");
    expect(pyFloat(1_000_000)).toBe("1e+06");
    const page = renderSimVllm(fleet, host(21), AT);
    expect(page).toMatch(
      /^vllm:generation_tokens_total\{engine="0",model_name="meta-llama\/Llama-3.3-70B-Instruct"\} \d\.\d+e\+\d\d$/m,
    );
    expect(renderSimVllm(fleet, host(0), AT)).toBe("");
  });
});
