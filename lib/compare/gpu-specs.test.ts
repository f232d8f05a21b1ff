import { describe, expect, it } from "vitest";
import { denseTflops, GPU_SPECS, specKeyOf, specOf } from "./gpu-specs.ts";

function must<T>(v: T | null | undefined): T {
  if (v === null || v === undefined) throw new Error("missing");
  return v;
}

describe("GPU spec table", () => {
  it("maps the catalogue's model strings and nvidia-smi names to one spec", () => {
    const cases: [string, string | null][] = [
      ["A100-40GB", "A100-40GB"],
      ["A100-80GB", "A100-80GB"],
      ["H100-80GB", "H100-80GB"],
      ["H200-141GB", "H200-141GB"],
      ["V100-16GB", "V100-16GB"],
      ["V100-32GB", "V100-32GB"],
      ["B200-180GB", "B200-180GB"],
      ["T4", "T4"],
      ["L4", "L4"],
      ["A10G", "A10G"],
      ["A10", "A10"],
      ["L40S", "L40S"],
      ["NVIDIA A100-SXM4-40GB", "A100-40GB"],
      ["NVIDIA A100-SXM4-80GB", "A100-80GB"],
      ["NVIDIA H100 80GB HBM3", "H100-80GB"],
      ["NVIDIA H200", "H200-141GB"],
      ["Tesla T4", "T4"],
      ["Tesla V100-SXM2-16GB", "V100-16GB"],
      ["Tesla V100-SXM2-32GB", "V100-32GB"],
      ["NVIDIA A10G", "A10G"],
      ["NVIDIA L40S", "L40S"],
      ["NVIDIA L4", "L4"],
      // not in the table: never guessed
      ["H100-94GB", null],
      ["NVIDIA H100 NVL", null],
      ["K80", null],
      ["NVIDIA L40", null],
      ["", null],
    ];
    for (const [name, key] of cases) expect(specKeyOf(name), name).toBe(key);
    expect(specKeyOf(null)).toBeNull();
  });

  it("keeps dense figures: halved only where the datasheet prints them with sparsity", () => {
    expect(specOf("H100-80GB")).toMatchObject({
      bf16Tflops: 989.5,
      memoryGB: 80,
      memoryBandwidthGBs: 3350,
    });
    expect(specOf("H200-141GB")).toMatchObject({
      bf16Tflops: 989.5,
      memoryGB: 141,
      memoryBandwidthGBs: 4800,
    });
    expect(specOf("A100-40GB")).toMatchObject({ bf16Tflops: 312, memoryBandwidthGBs: 1555 });
    expect(specOf("A100-80GB")).toMatchObject({ bf16Tflops: 312, memoryBandwidthGBs: 2039 });
    expect(specOf("L4")).toMatchObject({ bf16Tflops: 121, memoryGB: 24 });
    expect(specOf("L40S")).toMatchObject({ bf16Tflops: 362.05, memoryGB: 48 });
    expect(specOf("H100-80GB")?.note).toMatch(/with sparsity/);
  });

  it("divides by BF16, else FP16 (T4, V100 have no BF16), and by nothing for the A10G", () => {
    expect(denseTflops(must(specOf("H100-80GB")))).toEqual({ tflops: 989.5, precision: "BF16" });
    expect(denseTflops(must(specOf("T4")))).toEqual({ tflops: 65, precision: "FP16" });
    expect(denseTflops(must(specOf("V100-16GB")))).toEqual({ tflops: 125, precision: "FP16" });
    expect(denseTflops(must(specOf("A10G")))).toBeNull();
  });

  it("gives every spec a source with a URL and a date", () => {
    expect(GPU_SPECS.map((s) => s.key)).toEqual([
      "T4",
      "L4",
      "A10",
      "A10G",
      "L40S",
      "V100-16GB",
      "V100-32GB",
      "A100-40GB",
      "A100-80GB",
      "H100-80GB",
      "H200-141GB",
      "B200-180GB",
    ]);
    for (const s of GPU_SPECS) {
      expect(s.source, s.key).toMatch(/https:\/\//);
      expect(s.sourceDate, s.key).toMatch(/^\d{4}-\d{2}$/);
    }
  });
});
