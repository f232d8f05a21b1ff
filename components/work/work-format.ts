import { formatMoney } from "@/lib/format/money.ts";

// Formatting shared by the work tables (issue 28).

const rate = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });
const count = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** "12.3 output tokens/s" */
export function perSecond(v: number, unit: string): string {
  return `${rate.format(v)} ${unit.replace("_", " ")}/s`;
}

export function units(v: number): string {
  return count.format(v);
}

/** The unit cost, or why there is none. */
export function unitCostText(
  status: string,
  perMicros: string | null,
): { text: string; muted: boolean } {
  if (status === "ok" && perMicros !== null)
    return { text: formatMoney(perMicros, "USD", 4), muted: false };
  if (status === "unpriced") return { text: "unpriced", muted: true };
  return { text: "not enough data", muted: true };
}
