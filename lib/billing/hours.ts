import { HOUR_MS } from "../core/time.ts";
import { splitByWeights } from "../core/money.ts";

// A billed period is aligned to the ledger's UTC hours: a row for 00:00–01:00 is one hour; a row
// for a day (or 00:30–02:00) is split over the hours it spans in proportion to the time in each,
// to the micro, the shares adding up to the row exactly (largest remainder).

export interface HourShare {
  hourStart: Date;
  /** milliseconds of the period inside this hour: the weight of its share */
  ms: number;
}

/** The UTC hours [start, end) touches, with the time spent in each. A period with no length
 * (end ≤ start) counts wholly in its start's hour. */
export function hoursOf(start: Date, end: Date): HourShare[] {
  const s = start.getTime();
  const e = end.getTime();
  const first = s - (((s % HOUR_MS) + HOUR_MS) % HOUR_MS);
  if (!(e > s)) return [{ hourStart: new Date(first), ms: 1 }];
  const out: HourShare[] = [];
  for (let h = first; h < e; h += HOUR_MS) {
    out.push({ hourStart: new Date(h), ms: Math.min(e, h + HOUR_MS) - Math.max(s, h) });
  }
  return out;
}

/** `amount` split over `hours` by their time. */
export function splitOverHours(amount: bigint, hours: readonly HourShare[]): bigint[] {
  if (hours.length === 1) return [amount];
  return splitByWeights(
    amount,
    hours.map((h) => BigInt(h.ms)),
  );
}

/** The longest period one row may span: a month and a day (a monthly subscription row). */
export const MAX_ROW_HOURS = 32 * 24;
