// Regional rows of the shipped catalogue: each applies to its own region only and beats the "*"
// fallback there. Every figure is from the page named in its source, read on its source date.
import { AWS_P_CUT, BASELINE, price, spec } from "./catalogue-build.ts";
import { TENCENT_CATALOGUE } from "./catalogue-tencent.ts";
import type { CatalogueRow } from "./types.ts";

// The AWS offer files (version 20260910195514) stamp every SKU's terms with an effectiveDate of
// 2026-09-01, t3.micro's included: the date of the file's terms, not of a price change. So each
// regional row starts where the "*" row it refines starts (the baseline, or the June 2025 P4/P5
// cut), and the file's date stays its source date. Figures as copied byte for byte in
// github.com/scttfrdmn/substrate emulator/pricing_offer_fixture_ec2.go (the us-east-1 part is
// also lib/pricing/import/fixtures/aws-ec2-us-east-1-20260910195514.json). eu-west-1 publishes no
// g6 or p5 product, so those stay on the fallback there.
const offer = (region: string) =>
  `AWS Price List offer file AmazonEC2 ${region}, version 20260910195514 ` +
  `(https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonEC2/current/${region}/index.json), On-Demand Linux`;
const OFFER_DATE = "2026-09-10";
const OFFER_NOTE =
  "the offer file's effectiveDate (2026-09-01) dates its terms, not a price change: the row starts where the row it refines starts";

const g4dn = spec("aws", "g4dn.xlarge", "T4", 1, 16n);
const g6 = spec("aws", "g6.xlarge", "L4", 1, 24n);
const p4d = spec("aws", "p4d.24xlarge", "A100-40GB", 8, 40n);
const p5 = spec("aws", "p5.48xlarge", "H100-80GB", 8, 80n);
const p5en = spec("aws", "p5en.48xlarge", "H200-141GB", 8, 141n);

function aws(
  s: ReturnType<typeof spec>,
  region: string,
  usd: string,
  from: Date,
  note: string | null = null,
): CatalogueRow {
  const n = note ? `${note}; ${OFFER_NOTE}` : OFFER_NOTE;
  return price(s, "on_demand", usd, offer(region), OFFER_DATE, { from, region, note: n });
}

const AWS_REGIONAL: CatalogueRow[] = [
  aws(g4dn, "us-east-1", "0.526", BASELINE),
  aws(g4dn, "us-west-2", "0.526", BASELINE),
  aws(g4dn, "eu-west-1", "0.587", BASELINE),
  aws(g6, "us-east-1", "0.8048", BASELINE),
  aws(g6, "us-west-2", "0.8048", BASELINE),
  aws(p4d, "us-east-1", "21.957642", AWS_P_CUT),
  aws(
    p4d,
    "us-west-2",
    "21.95764",
    AWS_P_CUT,
    "the offer file differs from us-east-1 at the 7th digit",
  ),
  aws(p4d, "eu-west-1", "23.71569", AWS_P_CUT),
  aws(p5, "us-east-1", "55.04", AWS_P_CUT),
  aws(p5, "us-west-2", "55.04", AWS_P_CUT),
];

// p5en before the June 2025 cut: AWS launched it (December 2024) in us-east-2 and us-west-2, not
// us-east-1, at $84.80 an hour; after the cut both list the us-east-1 figure. A regional row
// beats the "*" row whatever its date, so both periods have rows of their own here.
const P5EN_LAUNCH =
  "AWS EC2 On-Demand pricing, https://aws.amazon.com/ec2/pricing/on-demand/ (us-east-2 and us-west-2, where p5en was offered before the June 2025 cut)";
const VANTAGE_P5EN = (region: string) =>
  `instances.vantage.sh data for p5en.48xlarge, ${region} On-Demand, as copied in github.com/tsaol/aws-gpu data/p5en_instances.js at 299375be7a2b940b53b3d80ec79fd66ee688f4fa (https://instances.vantage.sh/aws/ec2/p5en.48xlarge)`;
const P5EN_REGIONAL: CatalogueRow[] = ["us-east-2", "us-west-2"].flatMap((region) => [
  price(p5en, "on_demand", "84.80", P5EN_LAUNCH, "2025-05", {
    region,
    from: BASELINE,
    note: "approximate: on-demand list at launch (Dec 2024), verify on the page; list price before AWS's June 2025 P4/P5 price cut",
  }),
  price(p5en, "on_demand", "63.296", VANTAGE_P5EN(region), "2026-08-26", {
    region,
    from: AWS_P_CUT,
    note: "approximate: a third-party copy of the AWS list figure; after AWS's June 2025 P4/P5 price cut (effective 2025-06-01)",
  }),
]);

// Alibaba Cloud, China site, cn-shanghai, pay-as-you-go, in CNY (converted per hour at the rate in
// force: lib/pricing/rates-catalogue.ts). Read from Alibaba's ECS price estimation page
// (https://ecs-buy.aliyun.com/ecs) and published in "GPU Prices Quick Reference" (2023-06-17,
// updated 2023-07-21, github.com/ArthurChiao/arthurchiao.github.io, https://arthurchiao.art/blog/gpu-prices/).
const ALIYUN_CN =
  'Alibaba Cloud ECS price estimation page (https://ecs-buy.aliyun.com/ecs), cn-shanghai, pay-as-you-go, as tabled in "GPU Prices Quick Reference" (https://arthurchiao.art/blog/gpu-prices/)';
const ALIYUN_FROM = new Date("2023-08-01T00:00:00Z");
const ALIYUN_NOTE =
  "China-site list in CNY for cn-shanghai (as of 2023-06/07); applied from 2023-08-01, the month after it was read";
const cny = { region: "cn-shanghai", from: ALIYUN_FROM, currency: "CNY", note: ALIYUN_NOTE };

const ALIBABA: CatalogueRow[] = [
  price(
    spec("alibaba", "ecs.gn6i-c4g1.xlarge", "T4", 1, 16n),
    "on_demand",
    "11.63",
    ALIYUN_CN,
    "2023-07",
    cny,
  ),
  price(
    spec("alibaba", "ecs.gn6v-c8g1.2xlarge", "V100-16GB", 1, 16n),
    "on_demand",
    "26.46",
    ALIYUN_CN,
    "2023-07",
    cny,
  ),
  price(
    spec("alibaba", "ecs.gn7i-c8g1.2xlarge", "A10", 1, 24n),
    "on_demand",
    "9.53",
    ALIYUN_CN,
    "2023-07",
    cny,
  ),
  price(
    spec("alibaba", "ecs.gn7e-c16g1.4xlarge", "A100-80GB", 1, 80n),
    "on_demand",
    "34.74",
    ALIYUN_CN,
    "2023-07",
    cny,
  ),
];

export const REGIONAL_CATALOGUE: readonly CatalogueRow[] = [
  ...AWS_REGIONAL,
  ...P5EN_REGIONAL,
  ...TENCENT_CATALOGUE,
  ...ALIBABA,
];
