import { mulDivRound } from "../core/money.ts";

// Why a host's billed month differs from the ledger's estimate, per hour (docs/architecture.md,
// "Billing"): each hour's difference goes to exactly one reason, so the reasons add up to the
// variance to the micro.

export const VARIANCE_REASONS = [
  "spot_price",
  "commitment",
  "credit_refund",
  "exporter_missed",
  "billed_stopped",
  "not_billed",
  "unpriced",
  "price_differs",
] as const;
export type VarianceReason = (typeof VARIANCE_REASONS)[number];

export const REASON_LABELS: Record<VarianceReason, string> = {
  spot_price: "spot price differed from the list",
  commitment: "commitment applied (savings plan or reservation)",
  credit_refund: "credit or refund",
  exporter_missed: "hours (or parts of hours) the exporter missed",
  billed_stopped: "hours billed while gpufleet saw the host stopped",
  not_billed: "hours estimated but not billed",
  unpriced: "hours the catalogue could not price",
  price_differs: "billed rate differs from the list (private discount or price change)",
};

export interface LedgerHourIn {
  hourStart: number;
  costMicros: bigint;
  upSeconds: number;
  priced: boolean;
}

export interface BilledHourIn {
  hourStart: number;
  usageEffective: bigint;
  creditEffective: bigint;
  hasUsage: boolean;
  models: ReadonlySet<string>;
}

const COMMITTED = new Set(["savings_plan", "reserved", "commitment"]);

/** One host's variance split by reason (amounts signed: billed more than estimated is positive). */
export function explainVariance(
  ledger: readonly LedgerHourIn[],
  billed: readonly BilledHourIn[],
): Map<VarianceReason, bigint> {
  const out = new Map<VarianceReason, bigint>();
  const add = (r: VarianceReason, v: bigint) => {
    if (v !== 0n) out.set(r, (out.get(r) ?? 0n) + v);
  };
  const led = new Map(ledger.filter((l) => l.upSeconds > 0).map((l) => [l.hourStart, l]));
  const ups = [...led.keys()];
  const firstUp = ups.length ? Math.min(...ups) : Infinity;
  const lastUp = ups.length ? Math.max(...ups) : -Infinity;
  const bill = new Map(billed.map((b) => [b.hourStart, b]));
  for (const hour of new Set([...led.keys(), ...bill.keys()])) {
    const l = led.get(hour);
    const b = bill.get(hour);
    if (b) add("credit_refund", b.creditEffective);
    const eff = b?.usageEffective ?? 0n;
    if (!l) {
      if (b?.hasUsage)
        add(hour > firstUp && hour < lastUp ? "exporter_missed" : "billed_stopped", eff);
      continue;
    }
    if (!b?.hasUsage) {
      add("not_billed", -l.costMicros);
      continue;
    }
    if (!l.priced) {
      add("unpriced", eff - l.costMicros);
      continue;
    }
    // the part of the billed hour the ledger did not see up (a partly-answered hour) was missed
    const seen = l.upSeconds >= 3600 ? eff : mulDivRound(eff, BigInt(l.upSeconds), 3600n);
    add("exporter_missed", eff - seen);
    const diff = seen - l.costMicros;
    if (diff === 0n) continue;
    const models = b.models;
    add(
      [...models].some((m) => COMMITTED.has(m))
        ? "commitment"
        : models.has("spot")
          ? "spot_price"
          : "price_differs",
      diff,
    );
  }
  return out;
}
