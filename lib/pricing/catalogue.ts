// Seed catalogue: list prices, USD per instance-hour, Linux, as on each `source` page at `sourceDate`
// (not re-fetched at seed time); "*" applies them to every region. Spot and reserved rows are
// approximate. On-prem "dgx-a100" is deliberately absent: it shows what an unpriced host looks like.
import { parseMicros } from "../core/money.ts";
import { ANY_REGION, type CatalogueRow, type PriceRow, type PricingModel } from "./types.ts";

const GIB = 1024n ** 3n;

// Rows apply from this date; a later price change is a new row with a later effectiveFrom.
const BASELINE = new Date("2024-01-01T00:00:00Z");

const AWS_OD =
  "AWS EC2 On-Demand pricing, https://aws.amazon.com/ec2/pricing/on-demand/ (us-east-1)";
const AWS_SPOT = "AWS EC2 Spot pricing, https://aws.amazon.com/ec2/spot/pricing/ (us-east-1)";
const AWS_RI =
  "AWS EC2 Reserved Instances pricing, https://aws.amazon.com/ec2/pricing/reserved-instances/pricing/ (us-east-1)";
const AWS_SP =
  "AWS Savings Plans pricing, https://aws.amazon.com/savingsplans/compute-pricing/ (us-east-1)";
const GCP_VM =
  "Google Cloud VM instance pricing, https://cloud.google.com/compute/vm-instance-pricing (us-central1)";
const GCP_SPOT =
  "Google Cloud Spot VM pricing, https://cloud.google.com/spot-vms/pricing (us-central1)";
const GCP_CUD =
  "Google Cloud committed use discounts, https://cloud.google.com/compute/docs/instances/committed-use-discounts-overview";
const AZURE =
  "Azure Linux Virtual Machines pricing, https://azure.microsoft.com/pricing/details/virtual-machines/linux/ (East US)";
const ALIBABA = "Alibaba Cloud ECS pricing, https://www.alibabacloud.com/product/ecs/pricing";

const SPOT_NOTE = "approximate: typical spot price; spot prices move with supply, per zone";
const P_CUT_NOTE =
  "list price before AWS's June 2025 P4/P5 price cut; add a row with a later effectiveFrom for the new figure";

interface Spec {
  provider: string;
  instanceType: string;
  gpuModel: string;
  gpuCount: number;
  gpuMemoryBytes: bigint;
}

function spec(
  provider: string,
  instanceType: string,
  gpuModel: string,
  gpuCount: number,
  gib: bigint,
): Spec {
  return { provider, instanceType, gpuModel, gpuCount, gpuMemoryBytes: gib * GIB };
}

function price(
  s: Spec,
  pricingModel: PricingModel,
  usdPerHour: string,
  source: string,
  sourceDate: string,
  note: string | null = null,
): CatalogueRow {
  return {
    ...s,
    region: ANY_REGION,
    pricingModel,
    usdPerHour,
    effectiveFrom: BASELINE,
    source,
    sourceDate,
    note,
  };
}

// Memory is per GPU, nominal (the marketing figure in GiB), not what nvidia-smi reports.
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

export const CATALOGUE: readonly CatalogueRow[] = [
  // AWS
  price(g4dn, "on_demand", "0.526", AWS_OD, "2025-01"),
  price(g4dn, "spot", "0.19", AWS_SPOT, "2025-01", SPOT_NOTE),
  price(
    g4dn,
    "reserved",
    "0.331",
    AWS_RI,
    "2025-01",
    "approximate: 1-year Standard RI, no upfront, amortized hourly (about 37 % off on-demand)",
  ),
  price(g5, "on_demand", "1.006", AWS_OD, "2025-01"),
  price(g5, "spot", "0.41", AWS_SPOT, "2025-01", SPOT_NOTE),
  price(
    g5,
    "reserved",
    "0.634",
    AWS_RI,
    "2025-01",
    "approximate: 1-year Standard RI, no upfront, amortized hourly (about 37 % off on-demand)",
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
    "approximate: 1-year Standard RI, no upfront, amortized hourly (about 41 % off on-demand); before the June 2025 cut",
  ),
  price(p5, "on_demand", "98.32", AWS_OD, "2025-05", P_CUT_NOTE),
  price(p5, "spot", "35.00", AWS_SPOT, "2025-05", SPOT_NOTE),
  price(
    p5,
    "reserved",
    "60.96",
    AWS_SP,
    "2025-05",
    "approximate: 1-year EC2 Instance Savings Plan, no upfront, amortized hourly (about 38 % off on-demand); before the June 2025 cut",
  ),
  price(
    p5en,
    "on_demand",
    "84.80",
    AWS_OD,
    "2025-05",
    "approximate: on-demand list at launch (Dec 2024), verify on the page; " + P_CUT_NOTE,
  ),
  price(p5en, "spot", "32.00", AWS_SPOT, "2025-05", SPOT_NOTE),
  price(
    p5en,
    "reserved",
    "52.58",
    AWS_SP,
    "2025-05",
    "approximate: 1-year EC2 Instance Savings Plan, no upfront, amortized hourly (about 38 % off on-demand)",
  ),
  // Google Cloud: the machine type's price includes its GPUs, vCPUs, memory and bundled local SSD.
  price(a2high, "on_demand", "3.673", GCP_VM, "2025-01"),
  price(a2high, "spot", "1.443", GCP_SPOT, "2025-01", "spot prices can change up to once a month"),
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
    "approximate: 1-year resource-based committed use discount, amortized hourly (about 37 % off on-demand)",
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
    "approximate: 1-year reserved VM instance, monthly payment, amortized hourly (about 38 % off pay-as-you-go)",
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
  price(gn6i, "on_demand", "1.152", ALIBABA, "2025-01", "pay-as-you-go list; differs by region"),
];

/** The catalogue as stored rows, prices converted exactly to micro-dollars. */
export function catalogueRows(rows: readonly CatalogueRow[] = CATALOGUE): PriceRow[] {
  return rows.map(({ usdPerHour, ...rest }) => ({
    ...rest,
    usdPerHourMicros: parseMicros(usdPerHour),
    currency: "USD",
  }));
}
