"use client";

import { useSyncExternalStore } from "react";
import { formatDateTime, zoneLabel } from "@/lib/format/time.ts";

const subscribe = () => () => {};
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/**
 * The viewer's time zone. The server (and hydration) render in UTC; React then re-renders with the
 * browser's zone, so the markup never mismatches.
 */
export function useTimeZone(): string {
  return useSyncExternalStore(subscribe, browserZone, () => "UTC");
}

export function TimeZoneNote() {
  const tz = useTimeZone();
  return <span data-testid="time-zone">Times in {zoneLabel(tz)}</span>;
}

export function LocalTime({ value }: { value: string | number | Date | null }) {
  const tz = useTimeZone();
  if (value === null) return <span className="muted">never</span>;
  const iso = new Date(value).toISOString();
  return (
    <time dateTime={iso} title={iso}>
      {formatDateTime(value, tz)}
    </time>
  );
}
