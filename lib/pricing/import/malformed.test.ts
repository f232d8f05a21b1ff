import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db.ts";
import { makeTestDb } from "../../testing/test-db.ts";
import { applyImport } from "./apply.ts";
import { parseImport } from "./parse.ts";
import { ImportFormatError, type ImportProvider, type ParseOptions } from "./types.ts";

// A malformed file is refused with the line or key at fault, and the catalogue is unchanged:
// the variants are the real fixtures with one thing broken (or, for the opencost excerpt, a real
// file as it was published, with its trailing comma).

const text = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const AWS = text("aws-ec2-us-east-1-20260910195514.json");
const GCP = text("gcp-compute-skus-opencost.json");
const TEMPLATE = text("alibaba-gpu.csv");

let db: Db;
let before: number;
beforeAll(async () => {
  db = makeTestDb().db;
  await db.priceEntry.create({
    data: {
      provider: "aws",
      instanceType: "p4d.24xlarge",
      region: "us-east-1",
      pricingModel: "on_demand",
      gpuModel: "A100-40GB",
      gpuCount: 8,
      gpuMemoryBytes: 40n * 1024n ** 3n,
      usdPerHourMicros: 32_772_600n,
      effectiveFrom: new Date("2024-01-01T00:00:00Z"),
      source: "test",
      sourceDate: "2025-05",
    },
  });
  before = await db.priceEntry.count();
});
afterAll(async () => db.$disconnect());

async function refused(
  provider: ImportProvider,
  name: string,
  body: string,
  opts: ParseOptions = {},
): Promise<string> {
  let error: unknown = null;
  try {
    const parsed = await parseImport(provider, [{ name, source: [body] }], opts);
    await applyImport(db, parsed, { dryRun: false, provider });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ImportFormatError);
  expect(await db.priceEntry.count()).toBe(before);
  return (error as Error).message;
}

describe("malformed price lists are refused and change nothing", () => {
  it("bad JSON names its line (a real excerpt with a trailing comma)", async () => {
    const name = "aws-ec2-us-east-2-opencost-excerpt.malformed.json";
    expect(await refused("aws", name, text(name))).toBe(
      `${name}: line 170: not valid JSON (cannot parse input: unexpected token '}')`,
    );
  });

  it("a file cut short says so, with the key it stopped in", async () => {
    const cut = AWS.slice(0, AWS.indexOf('"H7NGEAC6UEHNTKSJ.JRTCKXETXF"'));
    expect(await refused("aws", "cut.json", cut)).toMatch(
      /^cut\.json: line \d+: the file ends inside terms\.OnDemand\.H7NGEAC6UEHNTKSJ: it is cut short$/,
    );
  });

  it("a non-numeric price names the term's key and line, after earlier GPU rows parsed fine", async () => {
    const bad = AWS.replace('"USD" : "21.9576420000"', '"USD" : "call us"');
    const message = await refused("aws", "bad-price.json", bad);
    expect(message).toMatch(
      /^bad-price\.json: terms\.OnDemand\.H7NGEAC6UEHNTKSJ\.H7NGEAC6UEHNTKSJ\.JRTCKXETXF\.priceDimensions\.H7NGEAC6UEHNTKSJ\.JRTCKXETXF\.6YS6EN2CT7 \(line \d+\): price is not a number: "call us"$/,
    );
  });

  it("a missing key is named", async () => {
    const noDate = AWS.replace('  "publicationDate" : "2026-09-10T19:55:14Z",\n', "");
    expect(await refused("aws", "no-date.json", noDate)).toBe(
      "no-date.json: publicationDate: missing",
    );
    const s3 = AWS.replace('"offerCode" : "AmazonEC2"', '"offerCode" : "AmazonS3"');
    expect(await refused("aws", "s3.json", s3)).toBe(
      "s3.json: offerCode: AmazonS3: only AmazonEC2 offer files hold instance prices",
    );
    const noItems = '{"BillingCurrency": "USD", "Count": 0}';
    expect(await refused("azure", "page.json", noItems, { sourceDate: "2026-11-30" })).toBe(
      "page.json: Items: missing: not an Azure Retail Prices API page",
    );
  });

  it("CSV: a header without a needed column, a template with an unknown column, a CNY row", async () => {
    const csv = text("aws-ec2-global-sample-20250912225308.csv").replace(',"GPU",', ',"GPUs",');
    expect(await refused("aws", "offer.csv", csv)).toBe(
      "offer.csv: line 6: header lacks column(s): GPU",
    );
    const extra = TEMPLATE.replace("source_date\n", "source_date,note\n").replace(
      /2025-01\n$/,
      "2025-01,x\n",
    );
    expect(await refused("alibaba", "t.csv", extra)).toMatch(
      /^t\.csv: line 1: unknown column\(s\): note /,
    );
    const name = "tencent-gpu-ap-guangzhou.cny.malformed.csv";
    expect(await refused("tencent", name, text(name))).toBe(
      `${name}: line 3, column currency: CNY prices need the exchange-rate support still to come: enter the USD price from the international price page`,
    );
    const badPrice = TEMPLATE.replace(",1.152,", ",1.15.2,");
    expect(await refused("alibaba", "p.csv", badPrice)).toMatch(
      /^p\.csv: line 2, column price_per_hour: /,
    );
  });

  it("GCP: a price that is not units and nanos; Azure: a page without a download date", async () => {
    const bad = GCP.replace('"units": "2"', '"units": "two"');
    expect(await refused("gcp", "skus.json", bad, { sourceDate: "2023-08" })).toMatch(
      /^skus\.json: skus\[0\] \(line \d+\)\.unitPrice: units\/nanos are not a price$/,
    );
    expect(await refused("azure", "page.json", text("azure-retail-eastus-b1s.json"))).toMatch(
      /carry no date: give the day they were downloaded/,
    );
  });

  it("two prices for one key in the files refuse the import", async () => {
    const page = JSON.parse(text("azure-retail-eastus-nd96isr-h100-v5.json")) as {
      Items: Record<string, unknown>[];
    };
    const first = page.Items[0] ?? {};
    page.Items.push({ ...first, retailPrice: 99.5 });
    expect(
      await refused("azure", "twice.json", JSON.stringify(page, null, 1), {
        sourceDate: "2026-09-16",
      }),
    ).toMatch(
      /Standard_ND96isr_H100_v5 eastus on_demand is priced twice, differently \(\$98\.32 at .*, \$99\.5 here\)/,
    );
  });

  it("an implausible price is refused as a typed one is: at most 12 integer digits", async () => {
    const azure = text("azure-retail-eastus-nd96isr-h100-v5.json");
    const opts = { sourceDate: "2026-09-16" };
    for (const price of ["100000000000000000000000", "9000000000000.5"]) {
      const page = azure.replace('"retailPrice": 98.32', `"retailPrice": ${price}`);
      expect(await refused("azure", "huge.json", page, opts)).toMatch(
        /^huge\.json: Items\[0\] \(line \d+\): Standard_ND96isr_H100_v5 eastus on_demand at \d+\.\d+ USD per hour: amount in dollars/,
      );
    }
    expect(
      await refused(
        "azure",
        "e.json",
        azure.replace('"retailPrice": 98.32', '"retailPrice": 1e23'),
        opts,
      ),
    ).toMatch(/^e\.json: Items\[0\] \(line \d+\)\.retailPrice: not a price: "1e23"$/);
    const aws = AWS.replace('"USD" : "21.9576420000"', '"USD" : "9000000000000.5000000000"');
    expect(await refused("aws", "aws.json", aws)).toMatch(
      /^aws\.json: terms\.OnDemand\..* p4d\.24xlarge us-east-1 on_demand at 9000000000000\.500000 USD per hour: /,
    );
  });
});
