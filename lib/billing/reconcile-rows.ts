import { formatCents, roundSignedPartsToTotal, roundToUnit } from "../core/money.ts";
import { REASON_LABELS, type VarianceReason } from "./reasons.ts";

// The reconciliation's rows (a host, or a GPU instance nobody monitors) and the grouped tables,
// with their money rounded for display so every table adds up to the bill's total to the cent.

export interface RowMoney {
  estimate: bigint;
  billed: bigint;
  effective: bigint;
}

export interface ReconRowIn extends RowMoney {
  kind: "host" | "unmonitored";
  key: string;
  name: string;
  team: string;
  provider: string;
  pricingModel: string;
  instanceType: string;
  region: string;
  account: string;
  billedHours: number;
  ledgerHours: number;
  reasons: Map<VarianceReason, bigint>;
}

export interface MoneyDto {
  estimateMicros: string;
  billedMicros: string;
  effectiveMicros: string;
  varianceMicros: string;
  /** variance ÷ estimate × 100, one decimal; null without an estimate */
  variancePct: number | null;
  /** the same, in dollars rounded to the cent so a table's rows add up to its total */
  display: { estimate: string; billed: string; effective: string; variance: string };
}

export type ReconRowDto = Omit<ReconRowIn, keyof RowMoney | "reasons"> &
  MoneyDto & {
    reasons: { reason: VarianceReason; label: string; micros: string }[];
    /** the reason that explains most of the variance, when one is known */
    reason: string | null;
  };

export interface GroupDto extends MoneyDto {
  key: string;
}

function pct(variance: bigint, estimate: bigint): number | null {
  if (estimate === 0n) return null;
  return Number((variance * 10_000n) / estimate) / 100;
}

/** Money of each of `items` with display figures rounded together (they add up to `total`). */
export function moneyDtos(items: readonly RowMoney[]): MoneyDto[] {
  const est = roundSignedPartsToTotal(items.map((i) => i.estimate));
  const bil = roundSignedPartsToTotal(items.map((i) => i.billed));
  const eff = roundSignedPartsToTotal(items.map((i) => i.effective));
  return items.map((i, n) => {
    const variance = i.effective - i.estimate;
    const e = est[n] ?? 0n;
    const f = eff[n] ?? 0n;
    return {
      estimateMicros: i.estimate.toString(),
      billedMicros: i.billed.toString(),
      effectiveMicros: i.effective.toString(),
      varianceMicros: variance.toString(),
      variancePct: pct(variance, i.estimate),
      display: {
        estimate: formatCents(e),
        billed: formatCents(bil[n] ?? 0n),
        effective: formatCents(f),
        variance: formatCents(f - e),
      },
    };
  });
}

export function totalDto(items: readonly RowMoney[]): MoneyDto {
  const t = items.reduce(
    (a, i) => ({
      estimate: a.estimate + i.estimate,
      billed: a.billed + i.billed,
      effective: a.effective + i.effective,
    }),
    { estimate: 0n, billed: 0n, effective: 0n },
  );
  const variance = t.effective - t.estimate;
  return {
    estimateMicros: t.estimate.toString(),
    billedMicros: t.billed.toString(),
    effectiveMicros: t.effective.toString(),
    varianceMicros: variance.toString(),
    variancePct: pct(variance, t.estimate),
    display: {
      estimate: formatCents(roundToUnit(t.estimate)),
      billed: formatCents(roundToUnit(t.billed)),
      effective: formatCents(roundToUnit(t.effective)),
      variance: formatCents(roundToUnit(t.effective) - roundToUnit(t.estimate)),
    },
  };
}

export function rowDtos(rows: readonly ReconRowIn[]): ReconRowDto[] {
  const money = moneyDtos(rows);
  return rows.map((r, n) => {
    const { estimate: _e, billed: _b, effective: _f, reasons, ...rest } = r;
    const list = [...reasons.entries()]
      .sort((a, b) => ((a[1] < 0n ? -a[1] : a[1]) > (b[1] < 0n ? -b[1] : b[1]) ? -1 : 1))
      .map(([reason, micros]) => ({
        reason,
        label: REASON_LABELS[reason],
        micros: micros.toString(),
      }));
    const m = money[n] as MoneyDto;
    return { ...rest, ...m, reasons: list, reason: list[0]?.label ?? null };
  });
}

/** Rows summed by `keyOf`, largest effective cost first. */
export function groupDtos(
  rows: readonly ReconRowIn[],
  keyOf: (r: ReconRowIn) => string,
): GroupDto[] {
  const groups = new Map<string, RowMoney>();
  for (const r of rows) {
    const k = keyOf(r);
    const g = groups.get(k) ?? { estimate: 0n, billed: 0n, effective: 0n };
    groups.set(k, {
      estimate: g.estimate + r.estimate,
      billed: g.billed + r.billed,
      effective: g.effective + r.effective,
    });
  }
  const keys = [...groups.keys()].sort((a, b) => {
    const x = groups.get(a)?.effective ?? 0n;
    const y = groups.get(b)?.effective ?? 0n;
    return x === y ? (a < b ? -1 : 1) : x > y ? -1 : 1;
  });
  const money = moneyDtos(keys.map((k) => groups.get(k) as RowMoney));
  return keys.map((key, n) => ({ key, ...(money[n] as MoneyDto) }));
}
