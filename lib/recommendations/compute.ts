import { rightSize } from "./rule-right-size.ts";
import { idleRelease } from "./rule-idle.ts";
import { migShare } from "./rule-mig.ts";
import { reserved, spot } from "./rule-pricing.ts";
import { RECO_DEFAULTS, type Candidate, type RecoInput, type RecoOptions } from "./types.ts";

/** Every recommendation for one host. An idle host gets only "release": the rest would not apply. */
export function recommendForHost(input: RecoInput, o: RecoOptions = RECO_DEFAULTS): Candidate[] {
  const idle = idleRelease(input, o);
  if (idle) return [idle];
  return [rightSize(input, o), spot(input, o), reserved(input, o), ...migShare(input, o)].filter(
    (c): c is Candidate => c !== null && c.monthlySavingMicros > 0n,
  );
}

/**
 * The fleet's possible saving: per host only the largest open recommendation counts, because a
 * host's alternatives (spot or reserved, right-size or MIG) do not add up.
 */
export function possibleSaving(
  recs: readonly { hostId: string; monthlySavingMicros: bigint }[],
): bigint {
  const best = new Map<string, bigint>();
  for (const r of recs) {
    const b = best.get(r.hostId);
    if (b === undefined || r.monthlySavingMicros > b) best.set(r.hostId, r.monthlySavingMicros);
  }
  let total = 0n;
  for (const v of best.values()) total += v;
  return total;
}
