import { describe, expect, it } from "vitest";
import { ageInDays, isStale, isStaleFor, sourceDay } from "./stale.ts";

const now = new Date("2026-12-01T12:00:00Z");

describe("stale prices", () => {
  it("reads a day as that day and a month as its last day", () => {
    expect(sourceDay("2026-09-10")?.toISOString()).toBe("2026-09-10T00:00:00.000Z");
    expect(sourceDay("2026-02")?.toISOString()).toBe("2026-02-28T00:00:00.000Z");
    expect(sourceDay("Sept 2026")).toBeNull();
  });

  it("flags a source date more than 90 days before now", () => {
    expect(isStale("2026-09-10", now)).toBe(false); // 82 days
    expect(isStale("2026-09-01", now)).toBe(true); // 91 days
    expect(isStale("2026-08", now)).toBe(true); // Aug 31: 92 days
    expect(isStale("2026-09", now)).toBe(false); // Sep 30: 62 days
    expect(isStale("2025-05", now)).toBe(true);
    expect(isStale("not a date", now)).toBe(true);
    expect(ageInDays("2026-09-10", now)).toBe(82);
  });

  it("flags a figure read more than 90 days after the hour it prices", () => {
    const hour = (iso: string) => new Date(`${iso}T00:00:00Z`);
    expect(isStaleFor("2026-12-01", hour("2024-01-01"), now)).toBe(true);
    expect(isStaleFor("2026-12-01", hour("2026-09-01"), now)).toBe(true); // 91 days before
    expect(isStaleFor("2026-12-01", hour("2026-09-02"), now)).toBe(false); // 90 days before
    expect(isStaleFor("2026-12-01", hour("2026-11-30"), now)).toBe(false);
    // an old reading stays stale whatever the hour
    expect(isStaleFor("2025-05", hour("2025-05-10"), now)).toBe(true);
  });
});
