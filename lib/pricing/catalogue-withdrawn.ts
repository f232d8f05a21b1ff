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
