import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { lookupPrice } from "./lookup.ts";
import { parseSpotHistory, SpotHistoryError, zoneRegion } from "./spot-history.ts";
import type { PriceRow } from "./types.ts";

const FIXTURE = new URL("./import/fixtures/aws-spot-price-history-p4d.json", import.meta.url);
const parsed = () => parseSpotHistory(readFileSync(FIXTURE, "utf8"), "p4d.json");

function catalogueSpot(over: Partial<PriceRow> = {}): PriceRow {
  return {
    provider: "aws",
    instanceType: "p4d.24xlarge",
    region: "*",
    pricingModel: "spot",
    gpuModel: "A100",
    gpuCount: 8,
    gpuMemoryBytes: 40n * 1024n ** 3n,
    usdPerHourMicros: 12_000_000n,
    currency: "USD",
    effectiveFrom: new Date("2024-01-01T00:00:00Z"),
    source: "catalogue",
    sourceDate: "2025-01",
    note: null,
    ...over,
  };
}

const spotQuery = (over: Record<string, unknown> = {}) => ({
  provider: "aws",
  instanceType: "p4d.24xlarge",
  region: "us-east-1",
  pricingModel: "spot",
  zone: "us-east-1a",
  at: new Date("2026-10-01T13:00:00Z"),
  ...over,
});

describe("parseSpotHistory", () => {
  it("keeps Linux/UNIX records of availability zones, counting what it skips", () => {
    const res = parsed();
    expect(res.read).toBe(6);
    expect(res.skippedProducts).toEqual({ Windows: 1 });
    expect(res.skippedZones).toBe(1);
    expect(res.duplicates).toBe(1);
    expect(
      res.points.map((p) => [p.zone, p.region, p.at.toISOString(), p.usdPerHourMicros]),
    ).toEqual([
      ["us-east-1a", "us-east-1", "2026-10-01T12:00:00.000Z", 9_832_100n],
      ["us-east-1b", "us-east-1", "2026-10-01T08:14:31.000Z", 11_204_500n],
      ["us-east-1a", "us-east-1", "2026-09-30T21:07:44.000Z", 10_418_700n],
    ]);
  });

  it("refuses a file with bad records, each named by its index", () => {
    const bad = JSON.stringify({
      SpotPriceHistory: [
        {
          AvailabilityZone: "us-east-1a",
          InstanceType: "p4d.24xlarge",
          ProductDescription: "Linux/UNIX",
          SpotPrice: "9.8",
          Timestamp: "2026-10-01T12:00:00+00:00",
        },
        {
          AvailabilityZone: "us-east-1a",
          InstanceType: "p4d.24xlarge",
          ProductDescription: "Linux/UNIX",
          SpotPrice: "nine",
          Timestamp: "2026-10-01T13:00:00+00:00",
        },
        {
          AvailabilityZone: "us-east-1a",
          ProductDescription: "Linux/UNIX",
          SpotPrice: "1.0",
          Timestamp: "yesterday",
        },
        {
          AvailabilityZone: "us-east-1a",
          InstanceType: "p4d.24xlarge",
          ProductDescription: "Linux/UNIX",
          SpotPrice: "9.9",
          Timestamp: "2026-10-01T12:00:00Z",
        },
      ],
    });
    let err: unknown;
    try {
      parseSpotHistory(bad, "bad.json");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SpotHistoryError);
    const problems = (err as SpotHistoryError).problems;
    expect(problems[0]).toMatch(/^SpotPriceHistory\[1\]\.SpotPrice: /);
    expect(problems.some((p) => p.startsWith("SpotPriceHistory[2].InstanceType"))).toBe(true);
    expect(problems.some((p) => p.startsWith("SpotPriceHistory[2].Timestamp"))).toBe(true);
    expect(problems.at(-1)).toMatch(
      /SpotPriceHistory\[3\]: .*two prices \(also SpotPriceHistory\[0\]\)/,
    );
    expect(() => parseSpotHistory("{", "x.json")).toThrow(/x\.json: not JSON/);
    expect(() => parseSpotHistory('{"Prices": []}', "x.json")).toThrow(
      /expected \{"SpotPriceHistory"/,
    );
  });

  it("reads an availability zone's region", () => {
    expect(zoneRegion("us-east-1a")).toBe("us-east-1");
    expect(zoneRegion("ap-northeast-2c")).toBe("ap-northeast-2");
    expect(zoneRegion("us-east-1-bos-1a")).toBeNull();
  });
});

describe("spot hours priced from the history", () => {
  const rows = () => [
    catalogueSpot({ spotHistory: [...parsed().points].sort((a, b) => +a.at - +b.at) }),
    catalogueSpot({ pricingModel: "on_demand", usdPerHourMicros: 21_957_642n }),
  ];

  it("takes the host's zone's newest record at or before the hour", () => {
    expect(lookupPrice(rows(), spotQuery())).toMatchObject({
      priced: true,
      usdPerHourMicros: 9_832_100n,
      gpuCount: 8,
      source: "AWS spot price history",
      note: "AWS spot price history, us-east-1a, 2026-10-01T12:00Z",
    });
    // before the 12:00 change, the earlier one was in force
    const earlier = lookupPrice(rows(), spotQuery({ at: new Date("2026-10-01T11:00:00Z") }));
    expect(earlier).toMatchObject({ usdPerHourMicros: 10_418_700n });
  });

  it("falls back to the mean of the region's zones, then to the catalogue's spot row", () => {
    // us-east-1c has no record: the mean of 1a (9.8321) and 1b (11.2045), half up
    const region = lookupPrice(rows(), spotQuery({ zone: "us-east-1c" }));
    expect(region).toMatchObject({ usdPerHourMicros: 10_518_300n, region: "us-east-1" });
    expect(region.priced && region.note).toMatch(
      /us-east-1 mean of 2 zones \(no price in force for us-east-1c\)/,
    );
    const noZone = lookupPrice(rows(), spotQuery({ zone: null }));
    expect(noZone).toMatchObject({ usdPerHourMicros: 10_518_300n });
    // before any record, in another region, or over 7 days after the newest: the catalogue row
    for (const q of [
      spotQuery({ at: new Date("2026-09-30T20:00:00Z") }),
      spotQuery({ zone: "eu-west-1a", region: "eu-west-1" }),
      spotQuery({ at: new Date("2026-10-08T13:00:00Z") }),
    ]) {
      expect(lookupPrice(rows(), q)).toMatchObject({
        usdPerHourMicros: 12_000_000n,
        source: "catalogue",
      });
    }
    // within 7 days it still holds
    const sixDays = lookupPrice(rows(), spotQuery({ at: new Date("2026-10-07T11:00:00Z") }));
    expect(sixDays).toMatchObject({ usdPerHourMicros: 9_832_100n });
  });

  it("prices only spot hours from it", () => {
    expect(lookupPrice(rows(), spotQuery({ pricingModel: "on_demand" }))).toMatchObject({
      usdPerHourMicros: 21_957_642n,
    });
  });
});
