// Times are shown in the viewer's time zone with the zone written out; the server renders in UTC
// and the client re-renders once it knows the browser's zone (see components/time-zone.tsx).

const cache = new Map<string, Intl.DateTimeFormat>();

function dtf(timeZone: string, options: Intl.DateTimeFormatOptions, tag: string) {
  const key = `${timeZone}|${tag}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", { ...options, timeZone });
    cache.set(key, f);
  }
  return f;
}

function toDate(value: Date | string | number): Date {
  return value instanceof Date ? value : new Date(value);
}

/** "29 Nov 2026, 16:58:03 CET" */
export function formatDateTime(value: Date | string | number, timeZone: string): string {
  return dtf(
    timeZone,
    {
      day: "2-digit",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hour12: false,
      timeZoneName: "short",
    },
    "datetime",
  ).format(toDate(value));
}

/** Axis ticks: "16:58" for short ranges, "29 Nov 16:00" for multi-day ones. */
export function formatTick(value: number, timeZone: string, spanMs: number): string {
  if (spanMs > 36 * 3600_000) {
    return dtf(
      timeZone,
      { day: "2-digit", month: "short", hour: "2-digit", minute: "2-digit", hour12: false },
      "daytick",
    ).format(new Date(value));
  }
  return dtf(timeZone, { hour: "2-digit", minute: "2-digit", hour12: false }, "tick").format(
    new Date(value),
  );
}

/** The zone's short name at a given instant, e.g. "CET" or "GMT+1". */
export function zoneAbbreviation(timeZone: string, at: Date = new Date()): string {
  const parts = dtf(timeZone, { timeZoneName: "short" }, "zone").formatToParts(at);
  return parts.find((p) => p.type === "timeZoneName")?.value ?? timeZone;
}

/** "Europe/Berlin (CET)" */
export function zoneLabel(timeZone: string, at: Date = new Date()): string {
  const abbr = zoneAbbreviation(timeZone, at);
  return abbr === timeZone ? timeZone : `${timeZone} (${abbr})`;
}

/** "3 min ago" style age of a timestamp relative to now. */
export function formatAge(value: Date | string | number, now: number): string {
  const seconds = Math.max(0, Math.round((now - toDate(value).getTime()) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} d ago`;
}
