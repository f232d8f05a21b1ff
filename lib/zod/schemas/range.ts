import { z } from "zod";
import { isRange, RANGE_LABELS, RANGE_MS, RANGES, type Range } from "./range-values.ts";

export { isRange, RANGE_LABELS, RANGE_MS, RANGES, type Range };

export const rangeSchema = z.enum(RANGES, { error: "range must be one of 1h, 6h, 24h, 7d" });

export const rangeQuerySchema = z.strictObject({ range: rangeSchema.default("1h") });

/** Points per series the server asks a source for; charts never need more. */
export const MAX_POINTS = 600;

export function toTimeRange(range: Range, now: Date, maxPoints = MAX_POINTS) {
  return { from: new Date(now.getTime() - RANGE_MS[range]), to: now, maxPoints };
}
