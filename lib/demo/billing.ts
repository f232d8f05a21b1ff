import { DAY_MS, HOUR_MS } from "../core/time.ts";
import { formatMicros, mulDivRound } from "../core/money.ts";
import { monthBounds } from "../core/months.ts";
import type { PriceRow } from "../pricing/types.ts";
import { lookupPrice } from "../pricing/lookup.ts";
import type { SimFleet, SimHostSpec } from "../../exporter/sim/types.ts";

// The demo's cloud bill for a month (issue 26): a FOCUS 1.2 export, one row per instance per day
// as Azure's and Google's daily exports write them, for the simulated AWS, Azure and GCP hosts
// (the Alibaba and Tencent hosts are billed to accounts not imported, the DGX is on-prem). It is
// priced so the reconciliation has something to explain: spot hours at a market price that moves
// day to day, savings-plan and reservation hours at their committed rate, one private discount,
// one service credit, every hour of the month billed (so the faulty host's exporter gaps show),
// and two GPU instances that no host in the demo answers to.

export const DEMO_ACCOUNT = "123456789012";
const AZURE_SUB = "8c2e9f7a-1b3d-4e5f-9a8b-0c1d2e3f4a5b";
const SP_ARN = `arn:aws:savingsplans::${DEMO_ACCOUNT}:savingsplan/6f2a9c1e-3b4d-4e8f-9a7b-5c6d7e8f9a0b`;
const AZ_RESERVATION =
  "/providers/Microsoft.Capacity/reservationOrders/demo-ri/reservations/nd96-1y";

/** Committed rates as a share of the on-demand list, in thousandths. */
const SAVINGS_PLAN = 720n; // AWS Compute Savings Plan, 1 year, no upfront
const AZURE_RESERVATION = 590n; // Azure reserved VM instance, 1 year
/** A negotiated discount on one on-demand Azure host (price_differs). */
const PRIVATE_DISCOUNT = { host: "gpu-azure-weu-018", thousandths: 930n };
/** A service credit on one host, on the 15th. */
const CREDIT = { host: "gpu-aws-usw2-003", micros: -250_000_000n };

export const FOCUS_DEMO_COLUMNS = [
  "BilledCost",
  "BillingAccountId",
  "BillingCurrency",
  "BillingPeriodEnd",
  "BillingPeriodStart",
  "ChargeCategory",
  "ChargeDescription",
  "ChargePeriodEnd",
  "ChargePeriodStart",
  "CommitmentDiscountId",
  "CommitmentDiscountType",
  "EffectiveCost",
  "ListCost",
  "PricingCategory",
  "ProviderName",
  "RegionId",
  "ResourceId",
  "ResourceType",
  "ServiceCategory",
  "ServiceName",
  "SkuMeter",
  "SubAccountId",
  "x_UsageType",
] as const;
type Row = Record<(typeof FOCUS_DEMO_COLUMNS)[number], string>;

/** Two GPU instances on the bill that the demo does not monitor (no exporter). */
export const UNMONITORED: readonly Pick<
  SimHostSpec,
  "hostname" | "provider" | "instanceType" | "region" | "pricingModel" | "instanceId"
>[] = [
  {
    hostname: "ml-sandbox-p4d",
    provider: "aws",
    instanceType: "p4d.24xlarge",
    region: "us-east-1",
    pricingModel: "on_demand",
    instanceId: "i-0badc0ffee5a4d001",
  },
  {
    hostname: "ml-scratch-t4",
    provider: "azure",
    instanceType: "Standard_NC4as_T4_v3",
    region: "eastus",
    pricingModel: "on_demand",
    instanceId: "",
  },
];

function resourceId(
  h: Pick<SimHostSpec, "hostname" | "provider" | "region" | "instanceId">,
): string {
  if (h.provider === "aws")
    return `arn:aws:ec2:${h.region}:${DEMO_ACCOUNT}:instance/${h.instanceId}`;
  if (h.provider === "azure")
    return `/subscriptions/${AZURE_SUB}/resourceGroups/gpufleet-demo/providers/Microsoft.Compute/virtualMachines/${h.hostname}`;
  return `//compute.googleapis.com/projects/gpufleet-demo/zones/${h.region}-a/instances/${h.instanceId}`;
}

/** The spot market's price that day, as thousandths of the catalogue's spot price (0.82–1.21). */
function spotFactor(day: number, hostname: string): bigint {
  let h = 0;
  for (const c of hostname) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return BigInt(820 + ((h + day * 97) % 390));
}

const PROVIDER_NAMES: Record<string, string> = {
  aws: "AWS",
  azure: "Microsoft",
  gcp: "Google Cloud",
};

function typeCells(h: Pick<SimHostSpec, "provider" | "instanceType" | "pricingModel">) {
  if (h.provider === "aws") {
    const usage = h.pricingModel === "spot" ? "SpotUsage" : "BoxUsage";
    return {
      SkuMeter: "Instance Hours",
      x_UsageType: `${usage}:${h.instanceType}`,
      ChargeDescription: `${h.instanceType} instance hours`,
    };
  }
  if (h.provider === "azure") {
    const meter = h.instanceType.replace(/^Standard_/, "").replaceAll("_", " ");
    return {
      SkuMeter: h.pricingModel === "spot" ? `${meter} Spot` : meter,
      x_UsageType: "",
      ChargeDescription: meter,
    };
  }
  const family = h.instanceType.split("-")[0]?.toUpperCase() ?? "";
  const kind = h.instanceType.startsWith("a2-ultra") ? " Ultra" : "";
  return {
    SkuMeter: "",
    x_UsageType: "",
    ChargeDescription: `${family}${kind} Instance Core running in Americas`,
  };
}

/** The demo bill's rows for `month`, one per billed instance per day. */
export function* demoBillRows(
  fleet: SimFleet,
  prices: readonly PriceRow[],
  month: string,
): Generator<Row> {
  const { from, to } = monthBounds(month);
  const period = { BillingPeriodStart: from.toISOString(), BillingPeriodEnd: to.toISOString() };
  const billed = [...fleet.hosts.filter((h) => PROVIDER_NAMES[h.provider]), ...UNMONITORED];
  for (const h of billed) {
    for (let t = from.getTime(), day = 1; t < to.getTime(); t += DAY_MS, day++) {
      let list = 0n;
      let rate = 0n;
      for (let hour = t; hour < t + DAY_MS; hour += HOUR_MS) {
        const at = new Date(hour);
        const od = lookupPrice(prices, { ...h, pricingModel: "on_demand", at });
        const own = lookupPrice(prices, { ...h, at });
        const odMicros = od.priced ? od.usdPerHourMicros : 0n;
        list += odMicros;
        if (h.pricingModel === "spot")
          rate += own.priced
            ? mulDivRound(own.usdPerHourMicros, spotFactor(day, h.hostname), 1000n)
            : 0n;
        else if (h.pricingModel === "reserved")
          rate += mulDivRound(
            odMicros,
            h.provider === "azure" ? AZURE_RESERVATION : SAVINGS_PLAN,
            1000n,
          );
        else if (h.hostname === PRIVATE_DISCOUNT.host)
          rate += mulDivRound(odMicros, PRIVATE_DISCOUNT.thousandths, 1000n);
        else rate += odMicros;
      }
      const committed = h.pricingModel === "reserved";
      const aws = h.provider === "aws";
      yield {
        ...period,
        ...typeCells(h),
        BilledCost: formatMicros(committed && aws ? 0n : rate),
        BillingAccountId: DEMO_ACCOUNT,
        BillingCurrency: "USD",
        ChargeCategory: "Usage",
        ChargePeriodStart: new Date(t).toISOString(),
        ChargePeriodEnd: new Date(t + DAY_MS).toISOString(),
        CommitmentDiscountId: committed ? (aws ? SP_ARN : AZ_RESERVATION) : "",
        CommitmentDiscountType: committed ? (aws ? "Compute Savings Plans" : "Reservation") : "",
        EffectiveCost: formatMicros(rate),
        ListCost: formatMicros(list),
        PricingCategory: committed
          ? "Committed"
          : h.pricingModel === "spot"
            ? "Dynamic"
            : "Standard",
        ProviderName: PROVIDER_NAMES[h.provider] ?? h.provider,
        RegionId: h.region,
        ResourceId: resourceId(h),
        ResourceType: "Virtual Machine",
        ServiceCategory: "Compute",
        ServiceName:
          h.provider === "aws"
            ? "Amazon Elastic Compute Cloud"
            : h.provider === "azure"
              ? "Virtual Machines"
              : "Compute Engine",
        SubAccountId: DEMO_ACCOUNT,
      };
      if (h.hostname === CREDIT.host && day === 15) {
        yield {
          ...period,
          ...typeCells(h),
          BilledCost: formatMicros(CREDIT.micros),
          BillingAccountId: DEMO_ACCOUNT,
          BillingCurrency: "USD",
          ChargeCategory: "Credit",
          ChargeDescription: "Service credit (EC2 capacity event)",
          ChargePeriodStart: new Date(t).toISOString(),
          ChargePeriodEnd: new Date(t + HOUR_MS).toISOString(),
          CommitmentDiscountId: "",
          CommitmentDiscountType: "",
          EffectiveCost: formatMicros(CREDIT.micros),
          ListCost: "",
          PricingCategory: "",
          ProviderName: "AWS",
          RegionId: h.region,
          ResourceId: resourceId(h),
          ResourceType: "Virtual Machine",
          ServiceCategory: "Compute",
          ServiceName: "Amazon Elastic Compute Cloud",
          SubAccountId: DEMO_ACCOUNT,
        };
      }
    }
  }
}

/** The same rows as CSV text lines (header first); no cell holds a comma or a quote. */
export function* demoBillCsv(
  fleet: SimFleet,
  prices: readonly PriceRow[],
  month: string,
): Generator<string> {
  yield `${FOCUS_DEMO_COLUMNS.join(",")}\n`;
  for (const row of demoBillRows(fleet, prices, month))
    yield `${FOCUS_DEMO_COLUMNS.map((c) => row[c]).join(",")}\n`;
}
