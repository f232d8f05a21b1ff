import { describe, expect, it } from "vitest";
import { catalogueRows } from "../pricing/catalogue.ts";
import { priceNotes } from "./price-notes.ts";

const now = new Date("2026-11-20T12:00:00Z");
const group = (
  hostname: string,
  provider: string,
  instanceType: string,
  region: string,
  first = "2026-11-01T00:00:00Z",
) => ({
  hostname,
  provider,
  instanceType,
  region,
  pricingModel: "on_demand",
  first: new Date(first),
  last: new Date("2026-11-20T11:00:00Z"),
});

describe("priceNotes", () => {
  const notes = priceNotes(
    [
      group("gpu-aws-euw1-007", "aws", "g5.xlarge", "eu-west-1"),
      group("gpu-aws-usw2-003", "aws", "p5.48xlarge", "us-west-2"),
      group("gpu-alibaba-sha-020", "alibaba", "ecs.gn6i-c4g1.xlarge", "cn-shanghai"),
    ],
    catalogueRows(),
    now,
  );

  it("lists the rows behind the month: stale ones with their dates, fallbacks by region", () => {
    const g5 = notes.used.find((u) => u.instanceType === "g5.xlarge");
    expect(g5).toMatchObject({ region: "*", stale: true, sourceDate: "2025-01" });
    expect(g5?.fallbackFor).toEqual(["eu-west-1"]);
    const p5 = notes.used.find((u) => u.instanceType === "p5.48xlarge");
    expect(p5).toMatchObject({ region: "us-west-2", stale: false, sourceDate: "2026-09-10" });
    expect(p5?.fallbackFor).toEqual([]);
  });

  it("names the hosts priced in CNY and the rates their hours used", () => {
    expect(notes.converted).toEqual([
      {
        hostname: "gpu-alibaba-sha-020",
        currency: "CNY",
        rates: [
          // the newest shipped rate, 2026-08-21: 91 days before `now`, so stale
          expect.objectContaining({
            usdPerUnit: "0.14878738",
            sourceDate: "2026-08-21",
            stale: true,
          }),
        ],
      },
    ]);
    const gn6i = notes.used.find((u) => u.instanceType === "ecs.gn6i-c4g1.xlarge");
    expect(gn6i).toMatchObject({ localCurrency: "CNY", localPerHour: "11.630000" });
  });

  it("finds both rows when a price changed within the month", () => {
    const cut = priceNotes(
      [
        {
          ...group("h", "aws", "p5.48xlarge", "ap-south-1", "2025-05-30T00:00:00Z"),
          last: new Date("2025-06-02T00:00:00Z"),
        },
      ],
      catalogueRows(),
      now,
    );
    expect(cut.used.map((u) => u.effectiveFrom)).toEqual([
      "2024-01-01T00:00:00.000Z",
      "2025-06-01T00:00:00.000Z",
    ]);
  });

  it("flags a row read long after the hours it priced (Tencent's undated page, read 2026-12-01)", () => {
    const tencent = (first: string, last: string) =>
      priceNotes(
        [
          {
            ...group("t", "tencent", "GN7.2XLARGE32", "ap-guangzhou", first),
            last: new Date(last),
          },
        ],
        catalogueRows(),
        now,
      ).used[0];
    expect(tencent("2025-03-01T00:00:00Z", "2025-03-31T23:00:00Z")).toMatchObject({
      sourceDate: "2026-12-01",
      stale: true,
    });
    expect(tencent("2026-11-01T00:00:00Z", "2026-11-20T11:00:00Z")).toMatchObject({
      sourceDate: "2026-12-01",
      stale: false,
    });
  });

  it("lists no catalogue row for spot hours the spot price history priced", () => {
    const history = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => ({
      instanceType: "g5.xlarge",
      zone: "us-east-1b",
      region: "us-east-1",
      at: new Date(Date.UTC(2026, 10, 10 + d)),
      usdPerHourMicros: 400_000n + BigInt(d) * 1_000n,
    }));
    const rows = catalogueRows().map((r) =>
      r.provider === "aws" && r.instanceType === "g5.xlarge" ? { ...r, spotHistory: history } : r,
    );
    const spot = {
      ...group("gpu-aws-use1-006", "aws", "g5.xlarge", "us-east-1", "2026-11-01T00:00:00Z"),
      pricingModel: "spot",
    };
    const used = priceNotes([spot], rows, now).used;
    // the catalogue's spot row priced the days before the history begins, and only those
    expect(used).toHaveLength(1);
    expect(used[0]).toMatchObject({ instanceType: "g5.xlarge", pricingModel: "spot" });
    expect(used[0]?.hosts).toEqual(["gpu-aws-use1-006"]);
    const late = { ...spot, first: new Date("2026-11-10T00:00:00Z") };
    expect(priceNotes([late], rows, now).used).toEqual([]);
  });
});
