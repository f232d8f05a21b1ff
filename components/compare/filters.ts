// What the comparison page's tables share: the filters its URL holds and the pricing models' names.

const PRICING_LABELS: Record<string, string> = {
  on_demand: "On-demand",
  spot: "Spot",
  reserved: "Reserved",
};
export const pricingLabel = (m: string) => PRICING_LABELS[m] ?? m;

export interface Filters {
  model: string;
  provider: string;
  pricingModel: string;
}
