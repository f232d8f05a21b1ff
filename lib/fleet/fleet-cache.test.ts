import { describe, expect, it } from "vitest";
import type { SourceHealthDto } from "@/lib/zod/schemas/common.ts";
import { replacesPrevious, servedHealth, type FleetView } from "./fleet-cache.ts";
import type { CacheEntry } from "./snapshot-cache.ts";

const OK: SourceHealthDto = {
  mode: "prometheus",
  ok: true,
  lastSuccess: "2026-11-29T12:00:00.000Z",
  error: null,
  stale: false,
};
const AT = Date.parse("2026-11-29T12:00:00Z");

function entry(error: string | null, sourceError: string | null = null, at = AT) {
  const snapshot = { health: OK, sourceError } as FleetView["snapshot"];
  return { value: { snapshot } as FleetView, at, error } satisfies CacheEntry<FleetView>;
}

describe("served fleet health", () => {
  it("passes a fresh entry's health through", () => {
    expect(servedHealth(entry(null), AT + 20_000, 40_000)).toEqual(OK);
  });

  it("marks the last good snapshot not ok and stale when its rebuild failed", () => {
    expect(servedHealth(entry("connection refused"), AT + 1000, 40_000)).toEqual({
      ...OK,
      ok: false,
      error: "connection refused",
      stale: true,
    });
  });

  it("marks an entry stale once it is older than the limit", () => {
    expect(servedHealth(entry(null), AT + 41_000, 40_000)).toMatchObject({ ok: true, stale: true });
  });
});

describe("a snapshot whose source failed", () => {
  it("does not replace a recent good one (the cache keeps it, marked)", () => {
    expect(replacesPrevious({ sourceError: "down" }, entry(null), AT + 60_000)).toBe(false);
  });

  it("replaces a good one older than five minutes, so GPUs show as not reporting", () => {
    expect(replacesPrevious({ sourceError: "down" }, entry(null), AT + 6 * 60_000)).toBe(true);
  });

  it("is taken when there is nothing better", () => {
    expect(replacesPrevious({ sourceError: "down" }, null, AT)).toBe(true);
    expect(replacesPrevious({ sourceError: "down" }, entry(null, "down"), AT)).toBe(true);
    expect(replacesPrevious({ sourceError: null }, entry(null), AT)).toBe(true);
  });
});
