import { describe, expect, it } from "vitest";
import { describePinning, pinning } from "./pin.ts";

describe("CPU pinning for the exporter bench", () => {
  it("keeps the last CPU for the load generator", () => {
    expect(pinning(2, true)).toEqual({ server: "0", load: "1" });
    expect(pinning(8, true)).toEqual({ server: "0-6", load: "7" });
  });
  it("does not pin on one CPU or without taskset", () => {
    expect(pinning(1, true)).toBeNull();
    expect(pinning(4, false)).toBeNull();
    expect(describePinning(null)).toMatch(/no CPU pinning/);
  });
});
