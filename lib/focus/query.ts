import { z } from "zod";
import { MAX_YEAR, MIN_YEAR, monthSchema } from "@/lib/zod/schemas/month.ts";

// The FOCUS export's query: format, granularity, and either one UTC month or a range of whole UTC
// days (both ends included), at most MAX_FOCUS_DAYS long. Shared by the route (validation) and the
// costs page (the download link), so both agree on names and defaults.

export const FOCUS_FORMATS = ["csv", "parquet"] as const;
export const FOCUS_GRANULARITIES = ["daily", "hourly"] as const;
export type FocusFormat = (typeof FOCUS_FORMATS)[number];
export type FocusGranularity = (typeof FOCUS_GRANULARITIES)[number];

/** A year and a day of charges; longer ranges are several downloads. */
export const MAX_FOCUS_DAYS = 366;
const DAY_MS = 86_400_000;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 00:00 UTC of a YYYY-MM-DD day, or null when it is no real date in 2000–2100. */
export function parseUtcDay(text: string): Date | null {
  const m = DATE.exec(text);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < MIN_YEAR || year > MAX_YEAR) return null;
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCMonth() === month - 1 && d.getUTCDate() === day ? d : null;
}

const daySchema = z
  .string()
  .refine((s) => parseUtcDay(s) !== null, {
    error: `a date must be a real YYYY-MM-DD day between ${MIN_YEAR} and ${MAX_YEAR}`,
  })
  .describe("a UTC day, YYYY-MM-DD");

export const focusQuerySchema = z
  .strictObject({
    format: z
      .enum(FOCUS_FORMATS, { error: "format must be csv or parquet" })
      .default("csv")
      .describe("csv (text/csv) or parquet (application/vnd.apache.parquet)"),
    granularity: z
      .enum(FOCUS_GRANULARITIES, { error: "granularity must be daily or hourly" })
      .default("daily")
      .describe("charge periods: one row per host per UTC day, or per host-hour"),
    month: monthSchema.optional(),
    from: daySchema.optional().describe("first UTC day (with to; instead of month)"),
    to: daySchema.optional().describe("last UTC day, included (with from)"),
  })
  .superRefine((q, ctx) => {
    if (q.month !== undefined && (q.from !== undefined || q.to !== undefined)) {
      ctx.addIssue({
        code: "custom",
        path: ["month"],
        message: "give month, or from and to, not both",
      });
      return;
    }
    if ((q.from === undefined) !== (q.to === undefined)) {
      const missing = q.from === undefined ? "from" : "to";
      ctx.addIssue({ code: "custom", path: [missing], message: "from and to go together" });
      return;
    }
    const from = q.from === undefined ? null : parseUtcDay(q.from);
    const to = q.to === undefined ? null : parseUtcDay(q.to);
    if (!from || !to) return;
    if (to < from) ctx.addIssue({ code: "custom", path: ["to"], message: "to is before from" });
    else if ((to.getTime() - from.getTime()) / DAY_MS + 1 > MAX_FOCUS_DAYS) {
      ctx.addIssue({
        code: "custom",
        path: ["to"],
        message: `at most ${MAX_FOCUS_DAYS} days per export`,
      });
    }
  });

export type FocusQuery = z.output<typeof focusQuerySchema>;

export interface FocusPeriod {
  from: Date;
  /** exclusive */
  to: Date;
  /** for file names: "2026-11" or "2026-11-01_2026-11-15" */
  label: string;
}

function utcMonthOf(at: Date): string {
  return `${String(at.getUTCFullYear()).padStart(4, "0")}-${String(at.getUTCMonth() + 1).padStart(2, "0")}`;
}

/** The [from, to) a validated query covers; no month and no range: the current UTC month. */
export function focusPeriod(q: FocusQuery, now: Date): FocusPeriod {
  if (q.from !== undefined && q.to !== undefined) {
    const from = parseUtcDay(q.from);
    const last = parseUtcDay(q.to);
    if (!from || !last) throw new RangeError(`invalid range ${q.from}..${q.to}`);
    return { from, to: new Date(last.getTime() + DAY_MS), label: `${q.from}_${q.to}` };
  }
  const month = q.month ?? utcMonthOf(now);
  const from = parseUtcDay(`${month}-01`);
  if (!from) throw new RangeError(`invalid month ${month}`);
  const to = new Date(from);
  to.setUTCMonth(to.getUTCMonth() + 1);
  return { from, to, label: month };
}

export function focusFileName(period: FocusPeriod, q: FocusQuery): string {
  return `gpufleet-focus-1.2-${period.label}-${q.granularity}.${q.format}`;
}

/** The download link the costs page offers. */
export function focusExportUrl(p: {
  month: string;
  format: FocusFormat;
  granularity: FocusGranularity;
}): string {
  const q = new URLSearchParams({ format: p.format, granularity: p.granularity, month: p.month });
  return `/api/costs/focus?${q.toString()}`;
}
