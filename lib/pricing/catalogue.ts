// Seed catalogue: list prices per instance-hour, Linux, as on each `source` page at `sourceDate`
// (not re-fetched at seed time). The rows here are region "*": the explicit fallback for a region
// without a row of its own (the pages say "fallback (no <region> price)" when one is used); the
// regional rows, Tencent Cloud and Alibaba's CNY rows are in catalogue-regional.ts. Spot and
// reserved rows are approximate. On-prem "dgx-a100" is deliberately absent: it shows what an
// unpriced host looks like.
import { parseMicros } from "../core/money.ts";
import { AWS_P_CUT, BASELINE, DERIVED, price, spec } from "./catalogue-build.ts";
import { REGIONAL_CATALOGUE } from "./catalogue-regional.ts";
import { convertMicros, rateInForce, type ExchangeRateRow } from "./fx.ts";
import { SHIPPED_RATES } from "./rates-catalogue.ts";
import type { CatalogueRow, PriceRow } from "./types.ts";

const AWS_OD =
  "AWS EC2 On-Demand pricing, https://aws.amazon.com/ec2/pricing/on-demand/ (us-east-1)";
const AWS_SPOT = "AWS EC2 Spot pricing, https://aws.amazon.com/ec2/spot/pricing/ (us-east-1)";
const AWS_RI =
  "AWS EC2 Reserved Instances pricing, https://aws.amazon.com/ec2/pricing/reserved-instances/pricing/ (us-east-1)";
const AWS_SP =
  "AWS Savings Plans pricing, https://aws.amazon.com/savingsplans/compute-pricing/ (us-east-1)";
const AWS_OFFER =
  "AWS Price List offer file AmazonEC2 us-east-1, version 20260910195514 (https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonEC2/current/us-east-1/index.json), On-Demand Linux";
const VANTAGE_P5EN =
  "instances.vantage.sh data for p5en.48xlarge, us-east-1 On-Demand, as copied in github.com/tsaol/aws-gpu data/p5en_instances.js (https://instances.vantage.sh/aws/ec2/p5en.48xlarge)";
/** p5en before the June 2025 cut was offered in us-east-2 and us-west-2 only, not us-east-1 */
const P5EN_PRE_CUT = (source: string) =>
  source.replace(
    "(us-east-1)",
    "(us-east-2 and us-west-2: p5en was not offered in us-east-1 then)",
  );
const GCP_VM =
  "Google Cloud VM instance pricing, https://cloud.google.com/compute/vm-instance-pricing (us-central1)";
const GCP_SPOT =
  "Google Cloud Spot VM pricing, https://cloud.google.com/spot-vms/pricing (us-central1)";
const GCP_CUD =
  "Google Cloud committed use discounts, https://cloud.google.com/compute/docs/instances/committed-use-discounts-overview";
const AZURE =
  "Azure Linux Virtual Machines pricing, https://azure.microsoft.com/pricing/details/virtual-machines/linux/ (East US)";
const ALIBABA = "Alibaba Cloud ECS pricing, https://www.alibabacloud.com/product/ecs/pricing";

// price() heads every spot row's note with "indicative" and its source date (spotNote)
const SPOT_NOTE = "spot prices move with supply, per zone";
const P_CUT_NOTE =
  "list price before AWS's June 2025 P4/P5 price cut; the row from 2025-06-01 holds the new figure";

/** A check of the page (issue 26, 2026-12) read another figure: said beside the derived one. */
const PUBLISHED_DIFFERS = (usd: string) => `; a check of the page in 2026-12 read $${usd}`;
const CUT_NOTE =
  "after AWS's June 2025 P4/P5 price cut (effective 2025-06-01); us-east-1 figure, the fallback for other regions";
const CUT_RESERVED_NOTE =
  DERIVED +
  "1-year commitment, no upfront, amortized hourly: the pre-cut discount applied to the post-cut on-demand price, not read from the pricing page";

const g4dn = spec("aws", "g4dn.xlarge", "T4", 1, 16n);
const g5 = spec("aws", "g5.xlarge", "A10G", 1, 24n);
const g6 = spec("aws", "g6.xlarge", "L4", 1, 24n);
const p3 = spec("aws", "p3.2xlarge", "V100-16GB", 1, 16n);
const p4d = spec("aws", "p4d.24xlarge", "A100-40GB", 8, 40n);
const p5 = spec("aws", "p5.48xlarge", "H100-80GB", 8, 80n);
const p5en = spec("aws", "p5en.48xlarge", "H200-141GB", 8, 141n);
const a2high = spec("gcp", "a2-highgpu-1g", "A100-40GB", 1, 40n);
const a2ultra = spec("gcp", "a2-ultragpu-1g", "A100-80GB", 1, 80n);
const g2 = spec("gcp", "g2-standard-4", "L4", 1, 24n);
const a3 = spec("gcp", "a3-highgpu-8g", "H100-80GB", 8, 80n);
const nd96 = spec("azure", "Standard_ND96asr_v4", "A100-40GB", 8, 40n);
const nc4t4 = spec("azure", "Standard_NC4as_T4_v3", "T4", 1, 16n);
const gn6i = spec("alibaba", "ecs.gn6i-c4g1.xlarge", "T4", 1, 16n);
const cut = (note: string) => ({ from: AWS_P_CUT, note });

const BASE_CATALOGUE: readonly CatalogueRow[] = [
  // AWS
  price(g4dn, "on_demand", "0.526", AWS_OD, "2025-01"),
  price(g4dn, "spot", "0.19", AWS_SPOT, "2025-01", SPOT_NOTE),
  price(
    g4dn,
    "reserved",
    "0.331",
    AWS_RI,
    "2025-01",
    DERIVED + "1-year Standard RI, no upfront, amortized hourly (about 37 % off on-demand)",
  ),
  price(g5, "on_demand", "1.006", AWS_OD, "2025-01"),
  price(g5, "spot", "0.41", AWS_SPOT, "2025-01", SPOT_NOTE),
  price(
    g5,
    "reserved",
    "0.634",
    AWS_RI,
    "2025-01",
    DERIVED + "1-year Standard RI, no upfront, amortized hourly (about 37 % off on-demand)",
  ),
  price(
    g6,
    "on_demand",
    "0.8048",
    AWS_OD,
    "2025-01",
    "approximate: list figure recalled, verify on the page",
  ),
  price(g6, "spot", "0.32", AWS_SPOT, "2025-01", SPOT_NOTE),
  price(p3, "on_demand", "3.06", AWS_OD, "2025-01"),
  price(p3, "spot", "0.918", AWS_SPOT, "2025-01", SPOT_NOTE),
  price(p4d, "on_demand", "32.7726", AWS_OD, "2025-05", P_CUT_NOTE),
  price(p4d, "spot", "12.50", AWS_SPOT, "2025-05", SPOT_NOTE),
  price(
    p4d,
    "reserved",
    "19.22",
    AWS_RI,
    "2025-05",
    DERIVED +
      "1-year Standard RI, no upfront, amortized hourly (about 41 % off on-demand); before the June 2025 cut",
  ),
  price(p4d, "on_demand", "21.957642", AWS_OFFER, "2026-09-10", cut(CUT_NOTE)),
  price(
    p4d,
    "reserved",
    "12.95",
    AWS_RI,
    "2026-09-10",
    cut(CUT_RESERVED_NOTE + " (41 %)" + PUBLISHED_DIFFERS("13.921094")),
  ),
  price(p5, "on_demand", "98.32", AWS_OD, "2025-05", P_CUT_NOTE),
  price(p5, "on_demand", "55.04", AWS_OFFER, "2026-09-10", cut(CUT_NOTE)),
  price(p5, "reserved", "34.12", AWS_SP, "2026-09-10", cut(CUT_RESERVED_NOTE + " (38 %)")),
  price(p5, "spot", "35.00", AWS_SPOT, "2025-05", SPOT_NOTE),
  price(
    p5,
    "reserved",
    "60.96",
    AWS_SP,
    "2025-05",
    DERIVED +
      "1-year EC2 Instance Savings Plan, no upfront, amortized hourly (about 38 % off on-demand); before the June 2025 cut",
  ),
  // p5en's pre-cut on-demand figure was its us-east-2 and us-west-2 price (it was not offered in
  // us-east-1 before the cut): those are regional rows (catalogue-regional.ts); before the cut the
  // fallback has no on-demand row, so a p5en hour elsewhere then is unpriced, not mispriced
  price(
    p5en,
    "on_demand",
    "63.296",
    VANTAGE_P5EN,
    "2025-12-21",
    cut("approximate: a third-party copy of the AWS list figure; " + CUT_NOTE),
  ),
  price(p5en, "reserved", "39.24", AWS_SP, "2025-12-21", cut(CUT_RESERVED_NOTE + " (38 %)")),
  price(p5en, "spot", "32.00", P5EN_PRE_CUT(AWS_SPOT), "2025-05", SPOT_NOTE),
  price(
    p5en,
    "reserved",
    "52.58",
    P5EN_PRE_CUT(AWS_SP),
    "2025-05",
    DERIVED +
      "1-year EC2 Instance Savings Plan, no upfront, amortized hourly (about 38 % off on-demand)",
  ),
  // Google Cloud: the machine type's price includes its GPUs, vCPUs, memory and bundled local SSD.
  price(a2high, "on_demand", "3.673", GCP_VM, "2025-01"),
  price(
    a2high,
    "spot",
    "1.443",
    GCP_SPOT,
    "2025-01",
    "Google changes spot prices up to once a month",
  ),
  price(
    a2ultra,
    "on_demand",
    "5.0688",
    GCP_VM,
    "2025-01",
    "approximate: list figure recalled, verify on the page",
  ),
  price(a2ultra, "spot", "1.90", GCP_SPOT, "2025-01", SPOT_NOTE),
  price(
    g2,
    "on_demand",
    "0.70683",
    GCP_VM,
    "2025-01",
    "approximate: list figure recalled, verify on the page",
  ),
  price(g2, "spot", "0.28", GCP_SPOT, "2025-01", SPOT_NOTE),
  price(a3, "on_demand", "87.80", GCP_VM, "2025-01", "approximate: rounded list figure"),
  price(a3, "spot", "28.00", GCP_SPOT, "2025-01", SPOT_NOTE),
  price(
    a3,
    "reserved",
    "55.31",
    GCP_CUD,
    "2025-01",
    DERIVED +
      "1-year resource-based committed use discount, amortized hourly (about 37 % off on-demand)" +
      PUBLISHED_DIFFERS("61.38"),
  ),
  // Azure
  price(nd96, "on_demand", "27.197", AZURE, "2025-01"),
  price(nd96, "spot", "10.88", AZURE, "2025-01", SPOT_NOTE),
  price(
    nd96,
    "reserved",
    "16.86",
    AZURE,
    "2025-01",
    DERIVED +
      "1-year reserved VM instance, monthly payment, amortized hourly (about 38 % off pay-as-you-go)",
  ),
  price(
    nc4t4,
    "on_demand",
    "0.526",
    AZURE,
    "2025-01",
    "approximate: list figure recalled, verify on the page",
  ),
  price(nc4t4, "spot", "0.16", AZURE, "2025-01", SPOT_NOTE),
  // Alibaba Cloud
  price(
    gn6i,
    "on_demand",
    "1.152",
    ALIBABA,
    "2025-01",
    "international-site pay-as-you-go list in USD; differs by region (cn-shanghai has a CNY row)",
  ),
];

export const CATALOGUE: readonly CatalogueRow[] = [...BASE_CATALOGUE, ...REGIONAL_CATALOGUE];

/**
 * The catalogue as stored rows: prices converted exactly to micro-units. A row kept in another
 * currency keeps its local price and lists its conversion at the rate in force at effectiveFrom;
 * the lookup converts per hour with the `rates` attached here.
 */
export function catalogueRows(
  rows: readonly CatalogueRow[] = CATALOGUE,
  rates: readonly ExchangeRateRow[] = SHIPPED_RATES,
): PriceRow[] {
  return rows.map(({ usdPerHour, local, ...rest }) => {
    if (!local) {
      return { ...rest, usdPerHourMicros: parseMicros(usdPerHour ?? ""), currency: "USD" };
    }
    const localPerHourMicros = parseMicros(local.perHour);
    const ofCurrency = rates.filter((r) => r.currency === local.currency);
    // the list figure: the rate in force at effectiveFrom, else the currency's first rate
    const rate =
      rateInForce(ofCurrency, local.currency, rest.effectiveFrom) ??
      [...ofCurrency].sort((a, b) => a.effectiveFrom.getTime() - b.effectiveFrom.getTime())[0];
    if (!rate) throw new Error(`no ${local.currency} exchange rate for ${rest.instanceType}`);
    return {
      ...rest,
      usdPerHourMicros: convertMicros(localPerHourMicros, rate.usdPerUnit),
      currency: local.currency,
      localPerHourMicros,
      rates: ofCurrency,
    };
  });
}

export { AWS_P_CUT, BASELINE };
