import { POWER_REASONS, THERMAL_REASONS } from "../../exporter/contract.ts";
import type { GpuReading } from "./snapshot.ts";

// Per-minute health columns of a GPU (ECC counters, throttle ratios), folded scrape by scrape
// beside the collector's own minute aggregate and written into the same GpuMinute row.

/** Clock-event reasons grouped the way the throttle rule reads them (nvml.h names). */

export interface HealthAgg {
  minuteStart: number;
  /** samples that carried clock-event readings, and how many had each class active */
  eventSamples: number;
  thermal: number;
  power: number;
  eccCorrected: number | null;
  eccUncorrected: number | null;
}

export interface HealthColumns {
  eccCorrected: number | null;
  eccUncorrected: number | null;
  thermalThrottleRatio: number | null;
  powerThrottleRatio: number | null;
}

function anyActive(events: Record<string, boolean>, reasons: readonly string[]): boolean {
  return reasons.some((r) => events[r] === true);
}

export function accumulateHealth(
  prev: HealthAgg | undefined,
  at: number,
  r: GpuReading,
): HealthAgg {
  const minute = at - (at % 60_000);
  const agg: HealthAgg =
    prev && prev.minuteStart === minute
      ? prev
      : {
          minuteStart: minute,
          eventSamples: 0,
          thermal: 0,
          power: 0,
          eccCorrected: null,
          eccUncorrected: null,
        };
  if (r.clockEvents && Object.keys(r.clockEvents).length > 0) {
    agg.eventSamples += 1;
    if (anyActive(r.clockEvents, THERMAL_REASONS)) agg.thermal += 1;
    if (anyActive(r.clockEvents, POWER_REASONS)) agg.power += 1;
  }
  // Counters: the minute keeps the last value seen.
  if (r.eccCorrected !== undefined) agg.eccCorrected = Math.round(r.eccCorrected);
  if (r.eccUncorrected !== undefined) agg.eccUncorrected = Math.round(r.eccUncorrected);
  return agg;
}

export function healthColumns(agg: HealthAgg | undefined): HealthColumns {
  if (!agg) {
    return {
      eccCorrected: null,
      eccUncorrected: null,
      thermalThrottleRatio: null,
      powerThrottleRatio: null,
    };
  }
  const ratio = (n: number) => (agg.eventSamples === 0 ? null : n / agg.eventSamples);
  return {
    eccCorrected: agg.eccCorrected,
    eccUncorrected: agg.eccUncorrected,
    thermalThrottleRatio: ratio(agg.thermal),
    powerThrottleRatio: ratio(agg.power),
  };
}
