import { describe, expect, it } from "vitest";
import {
  effectivePerGpuHour,
  niceMax,
  offersChartHeight,
  offersChartSummary,
  shapeOffersChart,
  type OfferInput,
} from "./chart-scatter-offers.shape.ts";

const offer = (
  provider: string,
  pricingModel: string,
  perGpuHourMicros: string,
  gpuCount = 8,
): OfferInput => ({
  provider,
  instanceType: `${provider}-box`,
  region: "*",
  pricingModel,
  gpuCount,
  usdPerHourMicros: String(BigInt(perGpuHourMicros) * BigInt(gpuCount)),
  perGpuHourMicros,
});

// cheapest first, as the compare answer sends them
const OFFERS = [
  offer("gcp", "spot", "2250000"),
  offer("aws", "spot", "2600000"),
  offer("aws", "reserved", "4100000"),
  offer("gcp", "on_demand", "6000000", 1),
  offer("aws", "on_demand", "6880000"),
];

describe("shapeOffersChart", () => {
  it("puts providers in rows, cheapest first, and pricing models in fixed series", () => {
    const c = shapeOffersChart(OFFERS, null);
    expect(c.providers).toEqual(["gcp", "aws"]);
    expect(c.series.map((s) => s.pricingModel)).toEqual(["on_demand", "reserved", "spot"]);
    const spot = c.series.find((s) => s.pricingModel === "spot");
    expect(spot?.points.map((p) => [p.provider, p.x, p.y])).toEqual([
      ["gcp", 2.25, 0.22],
      ["aws", 2.6, 1.22],
    ]);
    const onDemand = c.series.find((s) => s.pricingModel === "on_demand");
    // a 1-GPU and an 8-GPU offer compare per GPU-hour, not per instance-hour
    expect(
      onDemand?.points.map((p) => [p.provider, p.perGpuHourMicros, p.usdPerHourMicros]),
    ).toEqual([
      ["gcp", "6000000", "6000000"],
      ["aws", "6880000", "55040000"],
    ]);
    expect(c.actualPerGpuHourMicros).toBeNull();
    expect(c.xMax).toBe(8); // 6.88 × 1.08 = 7.43 → 8
    expect(offersChartHeight(c.providers.length)).toBe(52 + 2 * 30);
  });

  it("computes the fleet's effective $/GPU-hour from priced hours only", () => {
    // 100 GPU-hours, 20 of them unpriced, $400 for the 80 priced: $5 per GPU-hour
    const actual = { gpuHours: 100, unpricedGpuHours: 20, actualMicros: "400000000" };
    expect(effectivePerGpuHour(actual)).toBe(5_000_000n);
    const c = shapeOffersChart(OFFERS, actual);
    expect(c.actualPerGpuHourMicros).toBe("5000000");
    // a third of a micro-dollar rounds half-up once
    expect(
      effectivePerGpuHour({ gpuHours: 3, unpricedGpuHours: 0, actualMicros: "10000001" }),
    ).toBe(3_333_334n);
    // hours that arrive as seconds ÷ 3600 (7 s) come back as whole seconds
    expect(
      effectivePerGpuHour({ gpuHours: 7 / 3600, unpricedGpuHours: 0, actualMicros: "7000" }),
    ).toBe(3_600_000n);
    expect(effectivePerGpuHour({ gpuHours: 5, unpricedGpuHours: 5, actualMicros: "0" })).toBeNull();
    expect(effectivePerGpuHour(undefined)).toBeNull();
  });

  it("widens the axis to the actual line when the fleet paid more than every offer", () => {
    const c = shapeOffersChart(OFFERS, {
      gpuHours: 10,
      unpricedGpuHours: 0,
      actualMicros: "120000000",
    });
    expect(c.actualPerGpuHourMicros).toBe("12000000");
    expect(c.xMax).toBe(15); // 12 × 1.08 = 12.96 → 15
  });

  it("rounds the axis bound up to a round step", () => {
    expect(niceMax(0)).toBe(1);
    expect(niceMax(0.9)).toBe(1);
    expect(niceMax(1.2)).toBe(1.5);
    expect(niceMax(45)).toBe(50);
    expect(niceMax(90)).toBe(100); // 97.2
    expect(niceMax(93)).toBe(150); // 100.44: past 100, the next round step
  });

  it("says the chart in words", () => {
    expect(
      offersChartSummary(
        shapeOffersChart(OFFERS, { gpuHours: 80, unpricedGpuHours: 0, actualMicros: "400000000" }),
      ),
    ).toBe(
      "Cheapest on-demand: gcp $6.00/GPU-hour; cheapest reserved: aws $4.10/GPU-hour; " +
        "cheapest spot: gcp $2.25/GPU-hour. In the month the fleet paid $5.00/GPU-hour.",
    );
    expect(offersChartSummary(shapeOffersChart([], null))).toBe(
      "No offer. The fleet had no priced hours on this GPU in the month.",
    );
  });
});
