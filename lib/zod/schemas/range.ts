import { z } from "zod";

export const RANGES = ["1h", "6h", "24h", "7d"] as const;
export type Range = (typeof RANGES)[number];

export const RANGE_MS: Record<Range, number> = {
  "1h": 3600_000,
  "6h": 6 * 3600_000,
  "24h": 24 * 3600_000,
  "7d": 7 * 24 * 3600_000,
};

export const RANGE_LABELS: Record<Range, string> = {
  "1h": "1 hour",
  "6h": "6 hours",
  "24h": "24 hours",
  "7d": "7 days",
};

export const rangeSchema = z.enum(RANGES, { error: "range must be one of 1h, 6h, 24h, 7d" });

export const rangeQuerySchema = z.strictObject({ range: rangeSchema.default("1h") });

/** Points per series the server asks a source for; charts never need more. */
export const MAX_POINTS = 600;

export function isRange(value: unknown): value is Range {
  return typeof value === "string" && (RANGES as readonly string[]).includes(value);
}

export function toTimeRange(range: Range, now: Date, maxPoints = MAX_POINTS) {
  return { from: new Date(now.getTime() - RANGE_MS[range]), to: now, maxPoints };
}
