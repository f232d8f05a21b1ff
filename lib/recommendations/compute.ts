import { rightSize } from "./rule-right-size.ts";
import { idleRelease } from "./rule-idle.ts";
import { idleGpus } from "./rule-idle-gpus.ts";
import { migShare } from "./rule-mig.ts";
import { reserved, spot } from "./rule-pricing.ts";
import { busyInefficient, BUSY_UTIL, INEFFICIENT_SM_ACTIVE } from "./rule-inefficient.ts";
import { dailySeries, hourly } from "./stats.ts";
import {
  CONVENTION,
  RECO_DEFAULTS,
  type Candidate,
  type RecoInput,
  type RecoOptions,
} from "./types.ts";
import { HOUR_MS } from "../core/time.ts";
import { divRoundHalfUp, mulDivRound } from "../core/money.ts";
import { HOURS_PER_MONTH } from "../zod/schemas/recommendation.ts";

const pct = (v: number | null) => (v === null ? "?" : `${Math.round(v * 100)} %`);

/**
 * Busy but inefficient, per GPU of the host: the hours of `input.windows` that read busy while SM
 * active stayed low. Monthly saving = the GPU's ledger cost over those hours ÷ the hours judged ×
 * 730 h: the waste's observed rate, projected to a month as the other rules project an hourly
 * price. Nothing without windows, or for hours the ledger has not priced.
 */
export function busyInefficientFor(input: RecoInput): Candidate[] {
  const { host } = input;
  const windows = (input.windows ?? []).map((w) => ({
    hourStart: w.hourStart,
    stats: w.stats.filter((s) => s.hostId === host.id),
  }));
  if (windows.length === 0) return [];
  const judged = BigInt(windows.length);
  const starts = windows.map((w) => w.hourStart.getTime());
  const from = new Date(Math.min(...starts));
  const to = new Date(Math.max(...starts) + HOUR_MS);
  const out: Candidate[] = [];
  for (const f of busyInefficient(windows, input.rows)) {
    if (f.pricedHours === 0 || f.costMicros <= 0n) continue;
    const gpu = host.gpus.find((g) => g.uuid === f.gpuUuid);
    const label = gpu ? `GPU ${gpu.index}` : f.gpuUuid;
    const hourlySaving = divRoundHalfUp(f.costMicros, judged);
    const monthly = mulDivRound(f.costMicros, BigInt(HOURS_PER_MONTH), judged);
    const n = f.hours.length;
    out.push({
      kind: "busy_inefficient",
      fingerprint: `busy_inefficient:${f.gpuUuid}`,
      hostId: host.id,
      gpuUuid: f.gpuUuid,
      title: `${label} on ${host.hostname} is busy but barely used: ${n} hour${n === 1 ? "" : "s"} of ${windows.length}`,
      details: `${label}${gpu ? ` (${gpu.name})` : ""} read ${pct(f.utilAvg)} utilization while SM active stayed under ${pct(INEFFICIENT_SM_ACTIVE)} (mean ${pct(f.smActiveAvg)}) for ${n} of the last ${windows.length} hours: a stuck loop, a tiny kernel or a data-starved job holds it. Those hours cost its ${hourly(divRoundHalfUp(f.costMicros, BigInt(f.pricedHours)))} share. Ask ${host.owner ?? "the owner"} to check the job${host.owner ? "" : " running on it"}.`,
      evidence: {
        from: from.toISOString(),
        to: to.toISOString(),
        metrics: {
          ...f.evidence.metrics,
          hoursJudged: windows.length,
          pricedHours: f.pricedHours,
          costMicros: f.costMicros.toString(),
          firstHour: f.evidence.from,
          lastHourEnd: f.evidence.to,
          utilThreshold: BUSY_UTIL,
        },
        series: dailySeries(
          input.rows.filter((r) => r.gpuKey === f.gpuUuid),
          from,
          to,
        ),
        current: null,
        proposed: null,
        hourlySavingMicros: hourlySaving.toString(),
        convention: `${CONVENTION}; busy but inefficient: the GPU's ledger cost over the inefficient hours ÷ the hours judged × 730 h`,
        caveat:
          "saves money once the job is fixed or moved to a smaller GPU; the job may still need this GPU's memory",
      },
      monthlySavingMicros: monthly,
    });
  }
  return out;
}

/** Of two advices under one fingerprint, the one that saves more (the first on a tie). */
function larger(a: Candidate | null, b: Candidate | null): Candidate | null {
  if (!a || !b) return a ?? b;
  return b.monthlySavingMicros > a.monthlySavingMicros ? b : a;
}

/**
 * Every recommendation for one host. An idle host gets only "release": the rest would not apply.
 * A host with idle GPUs gets right-size (fewer GPUs, or consolidate) and no reserve advice; both
 * right-size rules share a fingerprint, so only the larger of the two is kept.
 */
export function recommendForHost(input: RecoInput, o: RecoOptions = RECO_DEFAULTS): Candidate[] {
  const idle = idleRelease(input, o);
  if (idle) return [idle];
  return [
    larger(idleGpus(input, o), rightSize(input, o)),
    spot(input, o),
    reserved(input, o),
    ...migShare(input, o),
    ...busyInefficientFor(input),
  ].filter((c): c is Candidate => c !== null && c.monthlySavingMicros > 0n);
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
