// How a MIG GPU's share of its host's cost is split over its slices (docs/architecture.md, "Cost"):
// a slice weighs its declared fraction, else its share of the parent's memory, in fixed point, and
// the parent row keeps the capacity no slice holds. The ledger (ledger-math.ts) and re-pricing
// (reprice-math.ts) both weigh slices here, so a re-priced hour splits as the ledger splits it.

/** Fixed-point scale of slice fractions. */
export const FRACTION_SCALE = 1_000_000;

/** A slice's share of its parent (0–1 once clamped): its declared fraction, else its memory share. */
export function sliceFraction(
  declared: number | null,
  sliceMemory: number | null,
  parentMemory: number | null,
): number {
  const byMemory = sliceMemory !== null && parentMemory ? sliceMemory / parentMemory : 0;
  return declared ?? byMemory;
}

/**
 * Weights [parent (unallocated capacity), ...slices] for splitByWeights. Rounding each fraction to
 * the scale errs by at most half a unit per slice; within that the slices fill the GPU (7 × 1/7
 * must leave nothing unallocated).
 */
export function migSplitWeights(fractions: readonly number[]): bigint[] {
  const weights = fractions.map((f) => Math.round(Math.min(1, Math.max(0, f)) * FRACTION_SCALE));
  const rest = FRACTION_SCALE - weights.reduce((s, w) => s + w, 0);
  const unallocated = rest > fractions.length ? rest : 0;
  return [BigInt(unallocated), ...weights.map(BigInt)];
}
