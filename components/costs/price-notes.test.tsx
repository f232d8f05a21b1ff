import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { PriceNotes } from "@/lib/zod/schemas/price-notes.ts";
import { PriceNotesPanel, priceNotesSummary } from "./price-notes.tsx";

type Used = PriceNotes["used"][number];
const used = (p: Partial<Used>): Used => ({
  provider: "aws",
  instanceType: "p5.48xlarge",
  region: "us-east-1",
  pricingModel: "on_demand",
  effectiveFrom: "2025-06-01T00:00:00.000Z",
  sourceDate: "2026-09-10",
  stale: false,
  ageDays: 66,
  localCurrency: null,
  localPerHour: null,
  fallbackFor: [],
  hosts: ["h1"],
  ...p,
});

const NOTES: PriceNotes = {
  used: [
    used({}),
    used({ instanceType: "p4d.24xlarge", stale: true, sourceDate: "2025-06", ageDays: 530 }),
    used({ region: "*", instanceType: "g6.xlarge", fallbackFor: ["eu-west-1"] }),
  ],
  converted: [
    {
      hostname: "gpu-alibaba-sha-1",
      currency: "CNY",
      rates: [
        {
          usdPerUnit: "0.13748728",
          effectiveFrom: "2025-02-01T00:00:00.000Z",
          sourceDate: "2025-02",
          source: "H.10",
          stale: true,
        },
      ],
    },
  ],
};

describe("prices behind the costs figures", () => {
  it("says the rows in one line", () => {
    expect(priceNotesSummary(NOTES)).toBe(
      "Priced from 3 catalogue rows: 1 stale, 1 any-region fallback, 1 host converted from CNY",
    );
    expect(priceNotesSummary({ used: [used({})], converted: [] })).toBe(
      "Priced from 1 catalogue row: none stale",
    );
  });

  it("keeps the lists in a closed disclosure, and has nothing to open when nothing stands out", () => {
    const html = renderToString(<PriceNotesPanel notes={NOTES} />);
    expect(html).toMatch(/<details[^>]*data-testid="price-notes-details"[^>]*>/);
    expect(html).not.toMatch(/<details[^>]* open/);
    expect(html).toContain("show</span></summary>");
    expect(html).toContain('data-testid="stale-price"');
    const plain = renderToString(<PriceNotesPanel notes={{ used: [used({})], converted: [] }} />);
    expect(plain).not.toContain("<details");
    expect(plain).toContain("Priced from 1 catalogue row: none stale");
    expect(renderToString(<PriceNotesPanel notes={{ used: [], converted: [] }} />)).toBe("");
  });
});
