// Regional rows of the shipped catalogue: each applies to its own region only and beats the "*"
// fallback there. Every figure is from the page named in its source, read on its source date.
import { AWS_P_CUT, BASELINE, price, spec } from "./catalogue-build.ts";
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

// Tencent Cloud, international site (prices in USD). The page prices Guangzhou Zone 3 and is
// undated: the figures were on it when read (2026-12-01), the source date. They apply from the
// baseline because no earlier figure is known; an hour more than 90 days before the source date
// is flagged stale for it (lib/pricing/stale.ts isStaleFor), so a back-dated figure is never
// taken for a checked one.
const TENCENT_READ = "2026-12-01";
const TENCENT_INTL =
  'Tencent Cloud, Cloud GPU Service "Billing Description" (https://intl.cloud.tencent.com/document/product/560), pay-as-you-go, computing part only, Guangzhou Zone 3';
const TENCENT_NOTE =
  "international-site USD list for ap-guangzhou; the page is undated: the source date is the day it was read, and the start date is the catalogue baseline (hours more than 90 days before the source date are flagged stale)";
const gn7 = spec("tencent", "GN7.2XLARGE32", "T4", 1, 16n);
const gn7big = spec("tencent", "GN7.5XLARGE80", "T4", 1, 16n);
const gn6s = spec("tencent", "GN6S.LARGE20", "P4", 1, 8n);

const TENCENT: CatalogueRow[] = (
  [
    [gn7, "1.26"],
    [gn7big, "2.01"],
    [gn6s, "1.11"],
  ] as const
).map(([s, usd]) =>
  price(s, "on_demand", usd, TENCENT_INTL, TENCENT_READ, {
    region: "ap-guangzhou",
    from: BASELINE,
    note: TENCENT_NOTE,
  }),
);

// Tencent Cloud, China site, pay-as-you-go (按量计费), in CNY: the GPU price overview ("价格总览") as
// published in Tencent's own documentation repository. It prices GN10Xp (V100 32 GB) and GT4
// (A100 40 GB) at one mainland-China reference list price, not per region, so the same figure is
// given to the three mainland regions that sell both families (Guangzhou, Shanghai, Beijing). It
// lists no A10 family (PNV4, GN7vi): none is shipped. GN7 is left on its international USD row.
const TENCENT_CN_COMMIT = "8ec072968ccbe6d60a8de2a7d57b4739a6814542";
const TENCENT_CN =
  'Tencent Cloud documentation, GPU Cloud Server "价格总览" (price overview), China site, 按量计费, ' +
  `https://github.com/tencentyun/qcloud-documents/blob/${TENCENT_CN_COMMIT}/product/计算与网络/GPU%20云服务器/购买指导/价格总览.md`;
const TENCENT_CN_NOTE =
  "approximate: one mainland-China reference list price in CNY, not read per region (the page: 本页参考价格主要以中国大陆地区为主; the purchase page decides); the page is undated: the source date is the day it was read (at the commit in the source), and the start date is the catalogue baseline (hours more than 90 days before the source date are flagged stale)";
const gn10xp = spec("tencent", "GN10Xp.2XLARGE40", "V100-32GB", 1, 32n);
const gt4 = spec("tencent", "GT4.4XLARGE96", "A100-40GB", 1, 40n);
const TENCENT_CN_REGIONS = ["ap-guangzhou", "ap-shanghai", "ap-beijing"] as const;

const TENCENT_CNY: CatalogueRow[] = TENCENT_CN_REGIONS.flatMap((region) =>
  (
    [
      [gn10xp, "11.98"],
      [gt4, "28.64"],
    ] as const
  ).map(([s, cnyPerHour]) =>
    price(s, "on_demand", cnyPerHour, TENCENT_CN, TENCENT_READ, {
      region,
      from: BASELINE,
      currency: "CNY",
      note: TENCENT_CN_NOTE,
    }),
  ),
);

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
  ...TENCENT,
  ...TENCENT_CNY,
  ...ALIBABA,
];
