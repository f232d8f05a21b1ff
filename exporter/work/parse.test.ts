import { describe, expect, it } from "vitest";
import { own } from "../test/helpers.ts";
import { mapServerMetrics, parseTextfile } from "./parse.ts";
import { ErrorCounts, type WorkSeries } from "./series.ts";

const byUnit = (series: WorkSeries[]) => Object.fromEntries(series.map((s) => [s.unit, s]));

describe("inference servers' /metrics → work series (real captures)", () => {
  it("vLLM: prompt, output tokens and requests of the served model; histograms ignored", () => {
    const r = mapServerMetrics(own("work/vllm-qwen3-0.6b.prom"), "127.0.0.1:8000");
    expect(r.invalidLines).toBe(0);
    const u = byUnit(r.series);
    expect(Object.keys(u).sort()).toEqual(["output_tokens", "prompt_tokens", "requests"]);
    const labels = { modelName: "Qwen/Qwen3-0.6B", job: "127.0.0.1:8000", source: "vllm" };
    expect(u.prompt_tokens).toEqual({ ...labels, unit: "prompt_tokens", value: 43952 });
    expect(u.output_tokens).toEqual({ ...labels, unit: "output_tokens", value: 4874 });
    // vllm:request_success_total, not the per-request histograms' _count
    expect(u.requests).toEqual({ ...labels, unit: "requests", value: 38 });
  });

  it("SGLang: counters in scientific notation; a restarted server passes through as a reset", () => {
    const first = byUnit(mapServerMetrics(own("work/sglang-llama-3.1-8b.prom"), "s:30000").series);
    expect(first.prompt_tokens?.value).toBe(8_128_902);
    expect(first.output_tokens?.value).toBe(7_557_572);
    expect(first.output_tokens?.source).toBe("sglang");
    expect(first.output_tokens?.modelName).toBe("meta-llama/Llama-3.1-8B-Instruct");
    // this capture predates sglang:num_requests_total: no requests unit, nothing invented
    expect(first.requests).toBeUndefined();
    const again = mapServerMetrics(own("work/sglang-llama-3.1-8b-restarted.prom"), "s:30000");
    const second = byUnit(again.series);
    expect(second.prompt_tokens?.value).toBe(51_234);
    expect(second.prompt_tokens?.value ?? Infinity).toBeLessThan(first.prompt_tokens?.value ?? 0);
  });

  it("sums the series a counter splits by other labels (finished_reason, engine, version)", () => {
    const text = [
      'vllm:request_success_total{engine="0",finished_reason="stop",model_name="m"} 12',
      'vllm:request_success_total{engine="0",finished_reason="length",model_name="m"} 3.0',
      'vllm:request_success_total{engine="1",finished_reason="stop",model_name="m"} 1e0',
      'vllm:generation_tokens_total{engine="0",model_name="m"} 1.5e6',
      'vllm:generation_tokens_total{engine="0",model_name="other"} 7',
      'nv_inference_count{model="resnet50",version="1"} 100',
      'nv_inference_count{model="resnet50",version="2"} 20',
    ].join("\n");
    const r = mapServerMetrics(text, "j");
    const find = (unit: string, model: string) =>
      r.series.find((s) => s.unit === unit && s.modelName === model)?.value;
    expect(find("requests", "m")).toBe(16);
    expect(find("output_tokens", "m")).toBe(1_500_000);
    expect(find("output_tokens", "other")).toBe(7);
    expect(find("inferences", "resnet50")).toBe(120);
    expect(r.series.find((s) => s.unit === "inferences")?.source).toBe("triton");
  });

  it("TGI: tokens from the histograms' _sum, no model label; bad lines counted, rest read", () => {
    const text = [
      'tgi_request_input_length_bucket{le="+Inf"} 40',
      "tgi_request_input_length_sum 18250",
      "tgi_request_input_length_count 40",
      "tgi_request_generated_tokens_sum 9.5e+03",
      "tgi_request_success 40",
      "tgi_request_success{ broken",
    ].join("\n");
    const r = mapServerMetrics(text, "127.0.0.1:3000");
    const u = byUnit(r.series);
    expect(u.prompt_tokens).toMatchObject({ value: 18250, modelName: "", source: "tgi" });
    expect(u.output_tokens?.value).toBe(9500);
    expect(u.requests?.value).toBe(40);
    expect(r.invalidLines).toBe(1);
  });
});

describe("textfiles", () => {
  it("serves gpufleet_work_units_total; the job defaults to the file's name", () => {
    const errors = new ErrorCounts();
    const r = parseTextfile(
      [
        "# TYPE gpufleet_work_units_total counter",
        'gpufleet_work_units_total{unit="samples",job="resnet-train"} 1.2e+07',
        'gpufleet_work_units_total{unit="images",model_name="sdxl"} 5000',
      ].join("\n"),
      "imagegen",
      errors,
    );
    expect(r.fatal).toBeUndefined();
    expect(r.series).toEqual([
      { unit: "samples", modelName: "", job: "resnet-train", source: "textfile", value: 12e6 },
      { unit: "images", modelName: "sdxl", job: "imagegen", source: "textfile", value: 5000 },
    ]);
    expect(errors.counts.size).toBe(0);
  });

  it("skips and counts unknown units, foreign labels, other series and bad values", () => {
    const errors = new ErrorCounts();
    const r = parseTextfile(
      [
        'gpufleet_work_units_total{unit="samples",job="ok"} 10',
        'gpufleet_work_units_total{unit="widgets",job="a"} 1',
        'gpufleet_work_units_total{unit="samples",job="b",gpu="0"} 1',
        'gpufleet_work_units_total{unit="samples",job="c",source="vllm"} 1',
        'gpufleet_work_units_total{unit="samples",job="d"} -4',
        'gpufleet_work_units_total{unit="samples",job="e"} NaN',
        "node_cpu_seconds_total 5",
      ].join("\n"),
      "f",
      errors,
    );
    expect(r.series.map((s) => s.job)).toEqual(["ok"]);
    expect(Object.fromEntries(errors.counts)).toEqual({
      unknown_unit: 1,
      unknown_label: 1,
      bad_source: 1,
      bad_value: 2,
      unknown_series: 1,
    });
  });

  it("rejects a file that does not parse, whole", () => {
    const errors = new ErrorCounts();
    const r = parseTextfile(
      'gpufleet_work_units_total{unit="samples",job="x"} 10\ngpufleet_work_units_total{unit="samp',
      "x",
      errors,
    );
    expect(r.series).toEqual([]);
    expect(r.fatal).toMatch(/unterminated|label/);
    expect(errors.counts.get("parse")).toBe(1);
  });
});
