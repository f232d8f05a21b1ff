import { describe, expect, it } from "vitest";
import { parseExposition } from "./exposition.ts";
import { snapshotFromSamples } from "./snapshot.ts";
import { accumulateHealth, healthColumns } from "./health-acc.ts";

const page = (uncorrected: number, capped: 0 | 1, thermal: 0 | 1) => `
gpu_info{gpu="0",uuid="GPU-a",name="NVIDIA A100-SXM4-40GB",mig_mode="disabled"} 1
gpu_utilization_ratio{gpu="0",uuid="GPU-a"} 0.9
gpu_ecc_errors_total{gpu="0",uuid="GPU-a",type="corrected"} 7
gpu_ecc_errors_total{gpu="0",uuid="GPU-a",type="uncorrected"} ${uncorrected}
gpu_clock_event_active{gpu="0",uuid="GPU-a",reason="gpu_idle"} 0
gpu_clock_event_active{gpu="0",uuid="GPU-a",reason="sw_power_cap"} ${capped}
gpu_clock_event_active{gpu="0",uuid="GPU-a",reason="hw_thermal_slowdown"} ${thermal}
`;

describe("health columns from scrapes", () => {
  it("reads ECC counters and clock events from the exporter's metric names", () => {
    const snap = snapshotFromSamples(parseExposition(page(2, 1, 0)).samples);
    const g = snap.gpus[0];
    expect(g?.eccCorrected).toBe(7);
    expect(g?.eccUncorrected).toBe(2);
    expect(g?.clockEvents).toEqual({
      gpu_idle: false,
      sw_power_cap: true,
      hw_thermal_slowdown: false,
    });
  });

  it("folds a minute's samples into throttle ratios and the last counter value", () => {
    const t0 = Date.UTC(2026, 10, 20, 12, 0, 0);
    const read = (u: number, c: 0 | 1, th: 0 | 1) => {
      const g = snapshotFromSamples(parseExposition(page(u, c, th)).samples).gpus[0];
      if (!g) throw new Error("no gpu");
      return g;
    };
    let agg = accumulateHealth(undefined, t0, read(1, 1, 0));
    agg = accumulateHealth(agg, t0 + 15_000, read(1, 1, 1));
    agg = accumulateHealth(agg, t0 + 30_000, read(2, 0, 0));
    agg = accumulateHealth(agg, t0 + 45_000, read(2, 1, 0));
    expect(healthColumns(agg)).toEqual({
      eccCorrected: 7,
      eccUncorrected: 2,
      thermalThrottleRatio: 0.25,
      powerThrottleRatio: 0.75,
    });
    // a new minute starts over
    const next = accumulateHealth(agg, t0 + 60_000, read(3, 0, 0));
    expect(healthColumns(next)).toMatchObject({ eccUncorrected: 3, powerThrottleRatio: 0 });
  });

  it("leaves the columns null when the exporter reports neither", () => {
    const snap = snapshotFromSamples(
      parseExposition(`gpu_utilization_ratio{gpu="0",uuid="GPU-b"} 0.5\n`).samples,
    );
    const g = snap.gpus[0];
    if (!g) throw new Error("no gpu");
    expect(healthColumns(accumulateHealth(undefined, 0, g))).toEqual({
      eccCorrected: null,
      eccUncorrected: null,
      thermalThrottleRatio: null,
      powerThrottleRatio: null,
    });
  });
});
