"use client";

import type { Banner } from "@/lib/fleet/health.ts";
import { LocalTime } from "./time-zone.tsx";

/** A stale or failed source: visible, with the time of the last good data, never a blank page. */
export function SourceBanner({ banner, onRetry }: { banner: Banner | null; onRetry?: () => void }) {
  if (!banner) return null;
  return (
    <div
      className={`banner ${banner.kind}`}
      role={banner.kind === "error" ? "alert" : "status"}
      data-testid="source-banner"
    >
      <strong>{banner.kind === "error" ? "Data unavailable" : "Data may be stale"}</strong>
      <span>
        {banner.message}. Last good data: <LocalTime value={banner.lastGood} />.
      </span>
      {onRetry ? (
        <button type="button" onClick={onRetry}>
          Retry now
        </button>
      ) : null}
    </div>
  );
}
