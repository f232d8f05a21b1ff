import type { SourceHealth } from "@/lib/metrics/source.ts";
import type { SourceHealthDto } from "@/lib/zod/schemas/common.ts";

/** Source health as the API sends it; stale once the newest data is older than `staleAfterMs`. */
export function toHealthDto(
  health: SourceHealth,
  mode: SourceHealthDto["mode"],
  now: number,
  staleAfterMs: number,
): SourceHealthDto {
  const last = health.lastSuccess?.getTime() ?? null;
  return {
    mode,
    ok: health.ok,
    lastSuccess: health.lastSuccess ? health.lastSuccess.toISOString() : null,
    error: health.error,
    stale: !health.ok || (last !== null && now - last > staleAfterMs),
  };
}

export interface Banner {
  kind: "error" | "stale";
  message: string;
  /** time of the last good data, ISO, when known */
  lastGood: string | null;
}

export interface BannerInput {
  health: SourceHealthDto | undefined;
  /** the request to our own API failed (network, 5xx) */
  requestError: string | null;
  /** when TanStack Query last got data (ms), 0 if never */
  dataUpdatedAt: number;
}

/** What the page should warn about, if anything: a failed request beats a stale source. */
export function bannerFor({ health, requestError, dataUpdatedAt }: BannerInput): Banner | null {
  if (requestError !== null) {
    const lastGood = dataUpdatedAt > 0 ? new Date(dataUpdatedAt).toISOString() : null;
    return {
      kind: "error",
      message: `Could not load fresh data: ${requestError}`,
      lastGood: health?.lastSuccess ?? lastGood,
    };
  }
  if (health && (health.stale || !health.ok)) {
    const why = health.error ?? "no new samples";
    return {
      kind: "stale",
      message: `Metrics source (${health.mode}) is not current: ${why}`,
      lastGood: health.lastSuccess,
    };
  }
  return null;
}
