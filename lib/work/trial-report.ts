// A trial rental's report (issue 28), pure: the trial host's measured cost per unit of work over
// its window against the instance types already running the same model (their last 30 days before
// the trial ended). The comparison is on one unit: output tokens where the model counts them, else
// the first unit both sides measured enough of. Savings keep the other type's throughput: its hosts'
// monthly work (units per host-hour × 730 h × hosts) done at the trial's cost per unit instead.
import { divRoundHalfUp } from "../core/money.ts";
import { formatMoney } from "../format/money.ts";
import type { WorkUnit } from "../../exporter/contract.ts";
import { isTokens, perLabel, type TypeModelRow, type UnitCostRow } from "./unit-cost-math.ts";

export const HOURS_PER_MONTH = 730;
export const BASELINE_DAYS = 30;

const UNIT_ORDER: readonly WorkUnit[] = [
  "output_tokens",
  "samples",
  "images",
  "inferences",
  "requests",
  "prompt_tokens",
];

export interface TrialComparison {
  provider: string;
  instanceType: string;
  hosts: number;
  hours: number;
  perMicros: string;
  /** what moving these hosts' work to the trial's type would save a month; negative: it costs */
  monthlySavingMicros: string;
}

export interface TrialReport {
  status: "compared" | "not_enough_data" | "nothing_to_compare";
  hostname: string;
  provider: string;
  instanceType: string;
  model: string | null;
  unit: WorkUnit | null;
  per: string | null;
  from: string;
  to: string;
  trial: { hours: number; units: number; perMicros: string | null };
  others: TrialComparison[];
  /** the sentence the trial list and the recommendation show */
  summary: string;
}

const dollars = (micros: bigint) => formatMoney(micros, "USD", micros < 10_000_000n ? 2 : 0);
const rate = (micros: bigint) => formatMoney(micros, "USD", 2);
const short = (per: string) => per.replace(/^\$ /, "");

export function trialReport(input: {
  host: { hostname: string; provider: string; instanceType: string };
  from: Date;
  to: Date;
  /** the trial host's rows over its window (per host, not split) */
  trial: readonly UnitCostRow[];
  /** every other host's rows over the baseline, by type and model (the trial host left out) */
  baseline: readonly TypeModelRow[];
}): TrialReport {
  const { host } = input;
  const head = {
    hostname: host.hostname,
    provider: host.provider,
    instanceType: host.instanceType,
    from: input.from.toISOString(),
    to: input.to.toISOString(),
  };
  const measured = input.trial.filter((r) => r.status === "ok" && r.modelName !== null);
  const ranked = [...measured].sort(
    (a, b) => UNIT_ORDER.indexOf(a.unit) - UNIT_ORDER.indexOf(b.unit),
  );
  for (const t of ranked) {
    const others = input.baseline.filter(
      (b) =>
        b.model === t.modelName &&
        !b.mixed &&
        b.unit === t.unit &&
        b.status === "ok" &&
        b.perMicros !== null &&
        !(b.provider === host.provider && b.instanceType === host.instanceType),
    );
    if (others.length === 0) continue;
    const trialPer = t.perMicros ?? 0n;
    const scale = isTokens(t.unit) ? 1_000_000n : 1000n;
    const comparisons = others
      .map((o) => {
        const monthlyCost = divRoundHalfUp(
          o.costMicros * BigInt(HOURS_PER_MONTH * o.hosts),
          BigInt(o.hours),
        );
        const monthlyUnits = BigInt(Math.round((o.units / o.hours) * HOURS_PER_MONTH * o.hosts));
        const atTrial = divRoundHalfUp(monthlyUnits * trialPer, scale);
        return {
          provider: o.provider,
          instanceType: o.instanceType,
          hosts: o.hosts,
          hours: o.hours,
          perMicros: (o.perMicros ?? 0n).toString(),
          monthlySavingMicros: (monthlyCost - atTrial).toString(),
        };
      })
      .sort((a, b) => Number(BigInt(b.monthlySavingMicros) - BigInt(a.monthlySavingMicros)));
    const best = comparisons[0] as TrialComparison;
    const saving = BigInt(best.monthlySavingMicros);
    const per = perLabel(t.unit);
    const hostsWord = `${best.hosts} ${best.instanceType} ${best.hosts === 1 ? "host" : "hosts"}`;
    const verdict =
      saving > 0n
        ? `moving the ${hostsWord} would save ${dollars(saving)}/month at the same throughput`
        : `moving the ${hostsWord} would cost ${dollars(-saving)}/month more at the same throughput`;
    return {
      ...head,
      status: "compared",
      model: t.modelName,
      unit: t.unit,
      per,
      trial: { hours: t.hours, units: t.units, perMicros: trialPer.toString() },
      others: comparisons,
      summary: `${t.modelName} on ${host.instanceType}: ${rate(trialPer)} ${short(per)} vs ${rate(BigInt(best.perMicros))} on ${best.instanceType} (measured ${t.hours} h vs ${best.hours} h); ${verdict}`,
    };
  }
  const first = input.trial[0];
  const status = measured.length === 0 ? "not_enough_data" : "nothing_to_compare";
  return {
    ...head,
    status,
    model: first?.modelName ?? null,
    unit: first?.unit ?? null,
    per: first ? first.per : null,
    trial: {
      hours: first?.hours ?? 0,
      units: first?.units ?? 0,
      perMicros: first?.perMicros?.toString() ?? null,
    },
    others: [],
    summary:
      status === "not_enough_data"
        ? `${host.hostname} (${host.instanceType}): not enough work measured during the trial to compare (a figure needs 1 h and 1 million tokens, or 1000 of another unit)`
        : `${host.hostname} (${host.instanceType}): no other instance type ran the same model with enough measured work in the ${BASELINE_DAYS} days before the trial ended`,
  };
}
