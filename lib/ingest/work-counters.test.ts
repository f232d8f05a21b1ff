import { describe, expect, it } from "vitest";
import { parseExposition } from "./exposition.ts";
import {
  counterIncrease,
  foldWork,
  hourRowKey,
  newWorkState,
  workFromSamples,
} from "./work-counters.ts";

const H = Date.UTC(2026, 10, 3, 10); // an hour start, passed explicitly

function scrape(prompt: string, output: string, extra = ""): string {
  return [
    "# HELP gpufleet_work_units_total Units of work counted by the host's own workloads.",
    "# TYPE gpufleet_work_units_total counter",
    `gpufleet_work_units_total{unit="prompt_tokens",model_name="Qwen/Qwen3-8B",job="vllm",source="vllm"} ${prompt}`,
    `gpufleet_work_units_total{unit="output_tokens",model_name="Qwen/Qwen3-8B",job="vllm",source="vllm"} ${output}`,
    extra,
    'gpu_utilization_ratio{gpu="0",uuid="GPU-1"} 0.5',
  ].join("\n");
}

describe("workFromSamples", () => {
  it("reads the normalised counter, scientific notation included, and skips unknown units", () => {
    const text = scrape(
      "1.5e+06",
      "2.5E5",
      'gpufleet_work_units_total{unit="furlongs",job="x"} 3\ngpufleet_work_units_total{unit="samples",job="train"} -1',
    );
    const read = workFromSamples(parseExposition(text).samples);
    expect(read.skipped).toBe(2);
    expect(read.series).toEqual([
      {
        unit: "prompt_tokens",
        modelName: "Qwen/Qwen3-8B",
        job: "vllm",
        source: "vllm",
        value: 1_500_000,
      },
      {
        unit: "output_tokens",
        modelName: "Qwen/Qwen3-8B",
        job: "vllm",
        source: "vllm",
        value: 250_000,
      },
    ]);
  });
});

describe("counterIncrease", () => {
  it("gives nothing for a first sample, the difference after, the new value after a reset", () => {
    expect(counterIncrease(undefined, 500)).toBe(0);
    expect(counterIncrease(500, 800)).toBe(300);
    expect(counterIncrease(800, 120)).toBe(120);
    expect(counterIncrease(120, 120)).toBe(0);
  });
});

describe("foldWork", () => {
  const read = (p: string, o: string) =>
    workFromSamples(parseExposition(scrape(p, o)).samples).series;

  it("adds increases to the hour of the scrape, through a reset", () => {
    const state = newWorkState();
    // first sight: a 0-unit row marks the hour as counted
    const first = foldWork(state, "h1", read("1000", "400"), H + 60_000);
    expect(first.map((d) => [d.unit, d.units])).toEqual([
      ["prompt_tokens", 0],
      ["output_tokens", 0],
    ]);
    for (const d of first) state.written.add(hourRowKey(d));
    const second = foldWork(state, "h1", read("3000", "900"), H + 120_000);
    expect(second.map((d) => [d.unit, d.units])).toEqual([
      ["prompt_tokens", 2000],
      ["output_tokens", 500],
    ]);
    // the server restarted: counters dropped, so the increase is the new value
    const third = foldWork(state, "h1", read("200", "50"), H + 180_000);
    expect(third.map((d) => [d.unit, d.units])).toEqual([
      ["prompt_tokens", 200],
      ["output_tokens", 50],
    ]);
    // nothing moved: no write needed for rows already written this hour
    expect(foldWork(state, "h1", read("200", "50"), H + 240_000)).toEqual([]);
    // the next hour: its first scrape opens its row even without an increase
    const next = foldWork(state, "h1", read("200", "70"), H + 3_600_000 + 5_000);
    expect(next.map((d) => [d.unit, d.units, d.hourStart.getTime()])).toEqual([
      ["prompt_tokens", 0, H + 3_600_000],
      ["output_tokens", 20, H + 3_600_000],
    ]);
  });

  it("keeps hosts apart", () => {
    const state = newWorkState();
    foldWork(state, "h1", read("10", "10"), H);
    foldWork(state, "h2", read("5000", "5000"), H);
    const d = foldWork(state, "h1", read("20", "30"), H + 60_000);
    expect(d.map((x) => [x.hostId, x.units])).toEqual([
      ["h1", 10],
      ["h1", 20],
    ]);
  });
});
