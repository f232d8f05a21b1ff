// A catalogue price (or exchange rate) read more than 90 days ago is "stale": the settings table
// flags it and the costs page lists the stale prices behind the month's figures. Pure, so the
// pages and the API agree, and a test can pin `now`.
import { DAY_MS } from "../core/time.ts";

export const STALE_AFTER_DAYS = 90;

/**
 * The day a source date stands for: "2025-06-01" is that day; a month ("2025-06") counts from its
 * last day, so a price read some time in June is not called stale before 90 days after June.
 */
export function sourceDay(sourceDate: string): Date | null {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(sourceDate.trim());
  if (day) return new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
  const month = /^(\d{4})-(\d{2})$/.exec(sourceDate.trim());
  if (month) return new Date(Date.UTC(Number(month[1]), Number(month[2]), 0));
  return null;
}

/** True when the source date is more than 90 days before `now` (an unreadable date is stale). */
export function isStale(sourceDate: string, now: Date): boolean {
  const d = sourceDay(sourceDate);
  if (!d) return true;
  return now.getTime() - d.getTime() > STALE_AFTER_DAYS * DAY_MS;
}

/**
 * Stale for the hour it prices: read more than 90 days before `now`, or read more than 90 days
 * after `hour`. A figure read in December 2026 and applied back to 2024 (a page with no date of
 * its own, given the catalogue's baseline as its start) was not known then: for those hours it is
 * as unchecked as an old reading is for today's.
 */
export function isStaleFor(sourceDate: string, hour: Date, now: Date): boolean {
  const d = sourceDay(sourceDate);
  if (!d || isStale(sourceDate, now)) return true;
  return d.getTime() - hour.getTime() > STALE_AFTER_DAYS * DAY_MS;
}

/** Whole days between the source date and `now`, for "read 412 days ago". */
export function ageInDays(sourceDate: string, now: Date): number | null {
  const d = sourceDay(sourceDate);
  return d ? Math.floor((now.getTime() - d.getTime()) / DAY_MS) : null;
}
