// Tencent Cloud's rows of the shipped catalogue. Tencent publishes two lists: the international
// site's, in USD, and the China site's, in CNY (converted per hour at the rate in force:
// rates-catalogue.ts). Each row says which (`site`); an account buys from the international site
// unless the admin settings name it on the China site (tencentChinaSiteAccounts, by the host's
// cloud_account label), and the lookup prices a host from its account's list (lookup.ts ofSite).
// Both pages are undated: their rows carry the day they were read as source date and apply from
// the catalogue baseline, so hours more than 90 days before that day are flagged stale for them
// (stale.ts isStaleFor) rather than taken for checked figures.
import { BASELINE, price, spec } from "./catalogue-build.ts";
import type { CatalogueRow } from "./types.ts";

const TENCENT_READ = "2026-12-01";

// International site: the page prices Guangzhou Zone 3.
const TENCENT_INTL =
  'Tencent Cloud, Cloud GPU Service "Billing Description" (https://intl.cloud.tencent.com/document/product/560), pay-as-you-go, computing part only, Guangzhou Zone 3';
const TENCENT_NOTE =
  "international-site USD list for ap-guangzhou; the page is undated: the source date is the day it was read, and the start date is the catalogue baseline (hours more than 90 days before the source date are flagged stale)";
const gn7 = spec("tencent", "GN7.2XLARGE32", "T4", 1, 16n);
const gn7big = spec("tencent", "GN7.5XLARGE80", "T4", 1, 16n);
const gn6s = spec("tencent", "GN6S.LARGE20", "P4", 1, 8n);

const INTERNATIONAL: CatalogueRow[] = (
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
    site: "international",
  }),
);

// China site, pay-as-you-go (按量计费), in CNY: the GPU price overview ("价格总览") as published in
// Tencent's own documentation repository. It gives one mainland-China reference list price, not
// per region: GN10Xp (V100 32 GB) and GT4 (A100 40 GB) are given to the three mainland regions
// that sell both families (Guangzhou, Shanghai, Beijing); GN7 and GN6S, which the international
// list prices in Guangzhou, to ap-guangzhou. For GN7 the page gives a range ("7.81 - 8.68" for
// GN7.2XLARGE32, "12.5 - 13.89" for GN7.5XLARGE80): the upper figure, the standard list price the
// page's earlier versions gave alone, is shipped. It lists no A10 family (PNV4, GN7vi).
const TENCENT_CN_COMMIT = "8ec072968ccbe6d60a8de2a7d57b4739a6814542";
const TENCENT_CN =
  'Tencent Cloud documentation, GPU Cloud Server "价格总览" (price overview), China site, 按量计费, ' +
  `https://github.com/tencentyun/qcloud-documents/blob/${TENCENT_CN_COMMIT}/product/计算与网络/GPU%20云服务器/购买指导/价格总览.md`;
const TENCENT_CN_NOTE =
  "approximate: one mainland-China reference list price in CNY, not read per region (the page: 本页参考价格主要以中国大陆地区为主; the purchase page decides); the page is undated: the source date is the day it was read (at the commit in the source), and the start date is the catalogue baseline (hours more than 90 days before the source date are flagged stale)";
const RANGE_NOTE = (low: string) =>
  `${TENCENT_CN_NOTE}; the page gives ${low} CNY at the low end of its range: the upper, standard list figure is shipped`;
const gn10xp = spec("tencent", "GN10Xp.2XLARGE40", "V100-32GB", 1, 32n);
const gt4 = spec("tencent", "GT4.4XLARGE96", "A100-40GB", 1, 40n);
const TENCENT_CN_REGIONS = ["ap-guangzhou", "ap-shanghai", "ap-beijing"] as const;

const cny = (s: ReturnType<typeof spec>, perHour: string, region: string, note = TENCENT_CN_NOTE) =>
  price(s, "on_demand", perHour, TENCENT_CN, TENCENT_READ, {
    region,
    from: BASELINE,
    currency: "CNY",
    note,
    site: "china",
  });

const CHINA: CatalogueRow[] = [
  ...TENCENT_CN_REGIONS.flatMap((region) => [
    cny(gn10xp, "11.98", region),
    cny(gt4, "28.64", region),
  ]),
  cny(gn7, "8.68", "ap-guangzhou", RANGE_NOTE("7.81")),
  cny(gn7big, "13.89", "ap-guangzhou", RANGE_NOTE("12.5")),
  cny(gn6s, "6.94", "ap-guangzhou"),
];

export const TENCENT_CATALOGUE: readonly CatalogueRow[] = [...INTERNATIONAL, ...CHINA];
