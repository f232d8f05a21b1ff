import { describe, expect, it } from "vitest";
import { buildFleet } from "../../exporter/sim/fleet.ts";
import { HOUR_MS } from "../core/time.ts";
import { catalogueRows } from "../pricing/catalogue.ts";
import { lookupPrice } from "../pricing/lookup.ts";
import { parseSpotHistory } from "../pricing/spot-history.ts";
import { DEMO_SEED } from "./seed.ts";
import {
  DEMO_SPOT_PROVENANCE,
  demoSpotHistoryJson,
  demoSpotSeries,
  spotPermille,
} from "./spot-history.ts";

// The demo's spot price history file: describe-spot-price-history JSON for the demo's AWS spot
// hosts' types and zones, one record an hour, around the catalogue's spot figure, deterministic.

const fleet = buildFleet({ seed: DEMO_SEED, hosts: 24 });
const TO = Date.UTC(2026, 10, 15, 12, 20);
const FROM = TO - 3 * 24 * HOUR_MS;

describe("the demo's spot price history", () => {
  it("covers the demo's AWS spot hosts' instance types in their zones", () => {
    expect(demoSpotSeries(fleet)).toEqual([
      { instanceType: "g5.xlarge", zone: "us-east-1b", region: "us-east-1" },
      { instanceType: "g6.xlarge", zone: "us-east-1d", region: "us-east-1" },
    ]);
    const spot = fleet.hosts.filter((h) => h.provider === "aws" && h.pricingModel === "spot");
    expect(spot.map((h) => [h.hostname, h.zone])).toEqual([
      ["gpu-aws-use1-006", "us-east-1b"],
      ["gpu-aws-use1-009", "us-east-1d"],
    ]);
  });

  it("is the CLI's JSON, says it is synthetic, and reads back whole through the importer", () => {
    const text = demoSpotHistoryJson(fleet, catalogueRows(), FROM, TO);
    const doc = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(["GpufleetProvenance", "SpotPriceHistory", "NextToken"]);
    expect(doc.GpufleetProvenance).toBe(DEMO_SPOT_PROVENANCE);
    expect(DEMO_SPOT_PROVENANCE).toMatch(/^Synthetic demo data .*not prices AWS published$/);
    const records = doc.SpotPriceHistory as Record<string, string>[];
    // newest first, as the CLI prints; one record an hour per series, 12:00 back to the 3rd day's 12:00
    expect(records[0]).toEqual({
      AvailabilityZone: "us-east-1b",
      InstanceType: "g5.xlarge",
      ProductDescription: "Linux/UNIX",
      SpotPrice: expect.stringMatching(/^\d+\.\d{4}00$/),
      Timestamp: "2026-11-15T12:00:00+00:00",
    });
    expect(records.at(-1)?.Timestamp).toBe("2026-11-12T12:00:00+00:00");
    const parsed = parseSpotHistory(text, "demo.json");
    expect(parsed).toMatchObject({ read: 2 * 73, duplicates: 0, skippedZones: 0 });
    expect(parsed.points).toHaveLength(2 * 73);
    // the same window gives the same bytes
    expect(demoSpotHistoryJson(fleet, catalogueRows(), FROM, TO)).toBe(text);
  });

  it("moves hour to hour around the catalogue's spot figure", () => {
    const { points } = parseSpotHistory(
      demoSpotHistoryJson(fleet, catalogueRows(), FROM, TO),
      "demo.json",
    );
    for (const type of ["g5.xlarge", "g6.xlarge"]) {
      const own = points.filter((p) => p.instanceType === type).sort((a, b) => +a.at - +b.at);
      const base = lookupPrice(catalogueRows(), {
        provider: "aws",
        instanceType: type,
        region: "us-east-1",
        pricingModel: "spot",
        at: new Date(TO),
      });
      if (!base.priced) throw new Error(base.reason);
      const ratios = own.map((p) => Number(p.usdPerHourMicros) / Number(base.usdPerHourMicros));
      expect(Math.min(...ratios)).toBeGreaterThanOrEqual(0.86 - 1e-3);
      expect(Math.max(...ratios)).toBeLessThanOrEqual(1.14 + 1e-3);
      const changes = own.filter(
        (p, i) => i > 0 && p.usdPerHourMicros !== own[i - 1]?.usdPerHourMicros,
      );
      expect(changes.length).toBeGreaterThan(own.length * 0.9);
      expect(new Set(own.map((p) => p.usdPerHourMicros)).size).toBeGreaterThan(20);
    }
  });

  it("is dearer in the US afternoon than at night, on average", () => {
    const s = { instanceType: "g5.xlarge", zone: "us-east-1b", region: "us-east-1" };
    const mean = (utcHour: number) => {
      let sum = 0;
      for (let d = 0; d < 30; d++)
        sum += Number(spotPermille(s, Date.UTC(2026, 9, 1 + d, utcHour)));
      return sum / 30;
    };
    expect(mean(20)).toBeGreaterThan(mean(8) + 100);
  });
});
