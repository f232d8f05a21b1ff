import { describe, expect, it } from "vitest";
import { HAVE_SHARED, own, shared } from "../test/helpers.ts";
import { GPU_FIELDS, resolveFields } from "./fields.ts";
import { parseHelpQueryGpu } from "./parse-help.ts";

describe.skipIf(!HAVE_SHARED)("driver 590 --help-query-gpu", () => {
  const fields = parseHelpQueryGpu(shared("help-query-gpu-590.48.01.txt"));

  it("lists fields and their aliases, not the prose", () => {
    expect(fields.has("utilization.gpu")).toBe(true);
    expect(fields.has("gpu_name")).toBe(true);
    expect(fields.has("clocks_throttle_reasons.active")).toBe(true);
    expect(fields.has("hostname")).toBe(true);
    expect([...fields].some((f) => f.includes(" ") || f.includes(":"))).toBe(false);
  });

  it("offers every field the exporter wants, under the modern names", () => {
    const { query, missing } = resolveFields(fields);
    expect(missing).toEqual([]);
    expect(query).toHaveLength(GPU_FIELDS.length);
    expect(query).toContain("clocks_event_reasons.sw_power_cap");
    expect(query).toContain("enforced.power.limit");
  });
});

describe("an older driver", () => {
  const fields = parseHelpQueryGpu(own("help-query-gpu-old-driver.txt"));

  it("falls back to aliases and leaves out what the driver lacks", () => {
    const { query, missing } = resolveFields(fields);
    expect(query).toContain("clocks_throttle_reasons.gpu_idle");
    expect(query).not.toContain("clocks_event_reasons.gpu_idle");
    expect(query).toContain("power.limit"); // no enforced.power.limit on this driver
    expect(query.every((f) => fields.has(f))).toBe(true);
    expect(missing).toEqual(
      expect.arrayContaining(["mig.mode.current", "clocks_event_reasons.sync_boost"]),
    );
    expect(fields.has("0: Default")).toBe(false);
  });

  it("refuses a driver without index or uuid", () => {
    expect(() => resolveFields(new Set(["index", "name"]))).toThrow(/uuid/);
  });
});
