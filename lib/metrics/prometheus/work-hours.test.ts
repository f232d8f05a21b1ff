import { describe, expect, it } from "vitest";
import { WORK_COUNTERS } from "../../../exporter/contract.ts";
import type { RangeMatrix } from "./api.ts";
import { hostOf, instanceAddress, joinWorkHours, type HostIndex } from "./work-hours.ts";

const H = Date.UTC(2026, 10, 3, 10) / 1000; // an hour start, seconds
const index: HostIndex = {
  ids: new Map([
    ["gpu-a", "A"],
    ["gpu-b", "B"],
    ["gpu-k", "K"],
  ]),
  byInstance: new Map([
    ["10.0.0.1:9835", "gpu-a"],
    ["10.0.0.2:9835", "gpu-b"],
    ["10.0.0.3:9835", "gpu-k"],
  ]),
  byPod: new Map([["llm/qwen-0", "gpu-k"]]),
};

function counters(byName: Record<string, RangeMatrix>): RangeMatrix[] {
  return WORK_COUNTERS.map((c) => byName[c.name] ?? []);
}

describe("hostOf", () => {
  it("joins by host label, exporter target, the target's address, then the pod", () => {
    expect(hostOf({ hostname: "gpu-b", instance: "x:1" }, index)).toBe("B");
    expect(hostOf({ instance: "10.0.0.1:9835" }, index)).toBe("A");
    expect(hostOf({ instance: "10.0.0.2:8000", job: "vllm" }, index)).toBe("B");
    expect(hostOf({ instance: "10.244.1.7:8000", namespace: "llm", pod: "qwen-0" }, index)).toBe(
      "K",
    );
    expect(hostOf({ instance: "10.9.9.9:8000" }, index)).toBeNull();
    expect(instanceAddress("[::1]:8000")).toBe("[::1]");
  });
});

describe("joinWorkHours", () => {
  it("maps servers' counters to units, stamps hours at their start, and never counts a relayed server twice", () => {
    const rows = joinWorkHours(
      {
        normalised: [
          {
            // the exporter relays host A's vLLM: Prometheus renamed its job label to exported_job
            metric: {
              instance: "10.0.0.1:9835",
              job: "gpufleet",
              exported_job: "vllm",
              unit: "output_tokens",
              model_name: "Qwen/Qwen3-8B",
              source: "vllm",
            },
            values: [
              [H + 3600, "1.2e6"],
              [H + 7200, "0"],
            ],
          },
        ],
        counters: counters({
          // A's vLLM is also scraped directly: skipped, the exporter already counts it
          "vllm:generation_tokens_total": [
            {
              metric: { instance: "10.0.0.1:8000", job: "vllm", model_name: "Qwen/Qwen3-8B" },
              values: [[H + 3600, "1.2e6"]],
            },
            {
              metric: {
                instance: "10.0.0.2:8000",
                job: "vllm",
                model_name: "meta-llama/Llama-3.1-8B",
              },
              values: [[H + 3600, "5e5"]],
            },
          ],
          nv_inference_count: [
            {
              metric: {
                instance: "10.244.1.7:8002",
                namespace: "llm",
                pod: "qwen-0",
                model: "resnet50",
                job: "triton",
              },
              values: [
                [H + 3600, "NaN"],
                [H + 7200, "3000"],
              ],
            },
          ],
        }),
      },
      index,
    );
    expect(
      rows.map((r) => [
        r.hostId,
        r.hourStart.getTime() / 1000 - H,
        r.unit,
        r.modelName,
        r.job,
        r.source,
        r.units,
      ]),
    ).toEqual([
      ["A", 0, "output_tokens", "Qwen/Qwen3-8B", "vllm", "vllm", 1_200_000],
      ["A", 3600, "output_tokens", "Qwen/Qwen3-8B", "vllm", "vllm", 0],
      ["B", 0, "output_tokens", "meta-llama/Llama-3.1-8B", "vllm", "vllm", 500_000],
      ["K", 3600, "inferences", "resnet50", "triton", "triton", 3000],
    ]);
  });
});
