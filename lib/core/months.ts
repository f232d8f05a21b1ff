// Calendar months in UTC: the ledger's hours are UTC, so month boundaries are too.

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

function parts(month: string): { year: number; index: number } {
  const m = MONTH.exec(month);
  if (!m) throw new RangeError(`not a YYYY-MM month: ${month}`);
  return { year: Number(m[1]), index: Number(m[2]) - 1 };
}

/** Date.UTC maps years 0-99 to 1900-1999; this does not. */
function utc(year: number, index: number): Date {
  const d = new Date(Date.UTC(2000, 0, 1));
  d.setUTCFullYear(year, index, 1);
  return d;
}

function format(year: number, index: number): string {
  const d = utc(year, index);
  return `${d.getUTCFullYear().toString().padStart(4, "0")}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
}

export function monthOf(at: Date): string {
  return format(at.getUTCFullYear(), at.getUTCMonth());
}

/** [from, to): the month's first instant and the next month's first instant, UTC. */
export function monthBounds(month: string): { from: Date; to: Date } {
  const { year, index } = parts(month);
  return { from: utc(year, index), to: utc(year, index + 1) };
}

/** The UTC month containing `at`, with its length in days. */
export function monthBoundsAt(at: Date): { from: Date; to: Date; days: number } {
  const month = monthOf(at);
  return { ...monthBounds(month), days: daysInMonth(month) };
}

export function addMonths(month: string, delta: number): string {
  const { year, index } = parts(month);
  return format(year, index + delta);
}

/** The `n` months ending with `month`, oldest first. */
export function monthsEnding(month: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => addMonths(month, i - n + 1));
}

export function daysInMonth(month: string): number {
  const { from, to } = monthBounds(month);
  return Math.round((to.getTime() - from.getTime()) / 86_400_000);
}

/** "November 2026" */
export function monthLabel(month: string): string {
  const { from } = monthBounds(month);
  return new Intl.DateTimeFormat("en-US", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(from);
}
