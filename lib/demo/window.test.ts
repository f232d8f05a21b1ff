import { describe, expect, it } from "vitest";
import { demoWindow } from "./seed.ts";

describe("demoWindow", () => {
  it("backfills up to the last closed hour", () => {
    const w = demoWindow({ now: new Date("2026-11-30T21:44:00Z") });
    expect(new Date(w.lastClosed).toISOString()).toBe("2026-11-30T20:00:00.000Z");
  });

  it("in a month's first hour also writes that hour, so the current month is never empty", () => {
    const w = demoWindow({ now: new Date("2026-12-01T00:10:00Z") });
    expect(new Date(w.lastClosed).toISOString()).toBe("2026-12-01T00:00:00.000Z");
    const next = demoWindow({ now: new Date("2026-12-01T01:00:00Z") });
    expect(new Date(next.lastClosed).toISOString()).toBe("2026-12-01T00:00:00.000Z");
  });
});
