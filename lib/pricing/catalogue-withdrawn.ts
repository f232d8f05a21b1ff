// Rows an earlier release shipped that this one no longer ships. Installing the catalogue only adds
// and corrects rows by their key (provider, type, region, model, effectiveFrom), so a row whose key
// changed would stay beside its replacement; each one named here is retired on install (kept for
// the record, never installed again) while it is still as shipped. A row a person changed is
// theirs: it is left alone.
import { BASELINE } from "./catalogue-build.ts";

export interface WithdrawnRow {
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  effectiveFrom: Date;
  /** "" unless the row was of one site's list */
  site?: string;
  /** why, for retiredBy (the settings table shows who retired a row) */
  why: string;
}

// Issue 26: the regional AWS rows started on the offer file's effectiveDate (2026-09-01), the
// date of its terms, not a price change; they now start where the rows they refine start.
const OFFER_TERMS = new Date("2026-09-01T00:00:00Z");
const REDATED = "release: re-dated to the start of the row it refines (issue 26)";
const regional: [string, string][] = [
  ["g4dn.xlarge", "us-east-1"],
  ["g4dn.xlarge", "us-west-2"],
  ["g4dn.xlarge", "eu-west-1"],
  ["g6.xlarge", "us-east-1"],
  ["g6.xlarge", "us-west-2"],
  ["p4d.24xlarge", "us-east-1"],
  ["p4d.24xlarge", "us-west-2"],
  ["p4d.24xlarge", "eu-west-1"],
  ["p5.48xlarge", "us-east-1"],
  ["p5.48xlarge", "us-west-2"],
];

export const WITHDRAWN: readonly WithdrawnRow[] = [
  ...regional.map(([instanceType, region]) => ({
    provider: "aws",
    instanceType,
    region,
    pricingModel: "on_demand",
    effectiveFrom: OFFER_TERMS,
    why: REDATED,
  })),
  // Tencent's rows now say which site's list they are (the key has the site)
  ...(
    [
      ["GN7.2XLARGE32", "ap-guangzhou"],
      ["GN7.5XLARGE80", "ap-guangzhou"],
      ["GN6S.LARGE20", "ap-guangzhou"],
      ...["ap-guangzhou", "ap-shanghai", "ap-beijing"].flatMap((region) => [
        ["GN10Xp.2XLARGE40", region],
        ["GT4.4XLARGE96", region],
      ]),
    ] as const
  ).map(([instanceType, region]) => ({
    provider: "tencent",
    instanceType,
    region,
    pricingModel: "on_demand",
    effectiveFrom: BASELINE,
    site: "",
    why: "release: now a row of one of Tencent's two sites' lists (issue 26)",
  })),
  // p5en's pre-cut $84.80 was its us-east-2 and us-west-2 price, shipped as the "*" row
  {
    provider: "aws",
    instanceType: "p5en.48xlarge",
    region: "*",
    pricingModel: "on_demand",
    effectiveFrom: BASELINE,
    why: "release: p5en's pre-cut price is its us-east-2 and us-west-2 rows (issue 26)",
  },
];
