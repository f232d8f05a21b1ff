import { describe, expect, it } from "vitest";
import { cellFill, legendStops, utilColor } from "./util-scale.ts";

describe("utilColor", () => {
  it("maps the ends and middle of viridis and clamps", () => {
    expect(utilColor(0)).toBe("#440154");
    expect(utilColor(1)).toBe("#fde725");
    expect(utilColor(0.5)).toBe("#21918c");
    expect(utilColor(-3)).toBe("#440154");
    expect(utilColor(7)).toBe("#fde725");
    expect(utilColor(Number.NaN)).toBe("#440154");
  });
  it("interpolates between stops", () => {
    expect(utilColor(0.05)).toBe("#461365");
  });
  it("gets brighter as utilization rises (monotone lightness)", () => {
    const lum = (hex: string) => {
      const n = Number.parseInt(hex.slice(1), 16);
      return 0.2126 * ((n >> 16) & 255) + 0.7152 * ((n >> 8) & 255) + 0.0722 * (n & 255);
    };
    const values = Array.from({ length: 21 }, (_, i) => lum(utilColor(i / 20)));
    for (let i = 1; i < values.length; i += 1) {
      expect(values[i]).toBeGreaterThan(values[i - 1] ?? 0);
    }
  });
  it("offers legend stops and leaves patterned states unfilled", () => {
    expect(legendStops(3).map((s) => s.color)).toEqual(["#440154", "#21918c", "#fde725"]);
    expect(cellFill("not_reporting", 0.5)).toBeUndefined();
    expect(cellFill("mig", null)).toBeUndefined();
    expect(cellFill("held_idle", 0)).toBe("#440154");
  });
});
