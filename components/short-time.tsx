"use client";

import { formatDateTime } from "@/lib/format/time.ts";
import { useTimeZone } from "./time-zone.tsx";

const shortFormats = new Map<string, Intl.DateTimeFormat>();

/** "30 Nov, 22:03" in the viewer's zone; the full time, with seconds and zone, in its title. */
export function ShortTime({ value }: { value: string }) {
  const tz = useTimeZone();
  let f = shortFormats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", {
      day: "2-digit",
      month: "short",
      hour: "2-digit",
      minute: "2-digit",
      hour12: false,
      timeZone: tz,
    });
    shortFormats.set(tz, f);
  }
  return (
    <time dateTime={value} title={formatDateTime(value, tz)}>
      {f.format(new Date(value))}
    </time>
  );
}
