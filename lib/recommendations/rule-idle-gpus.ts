import { formatBytes } from "../format/number.ts";
import { formatMoney } from "../format/money.ts";
import { lookupPrice, type PricedLookup } from "../pricing/lookup.ts";
import { DAY_MS } from "../core/time.ts";
import { mulDivRound } from "../core/money.ts";
import { HOURS_PER_MONTH } from "../zod/schemas/recommendation.ts";
import { otherPricedTypes, type Pick } from "./other-types.ts";
import { gpuIdleFacts, rightSizeFirst, type GpuIdleFacts } from "./gpu-idle.ts";
import { dailySeries, hostRowsOf, hourly, monthlyFromHourly, priceRef, within } from "./stats.ts";
import {
  CONVENTION,
  type Candidate,
  type HourRow,
  type RecoInput,
  type RecoOptions,
} from "./types.ts";

// Right-size before reserve: a multi-GPU host whose GPUs are substantially idle (gpu-idle.ts)
// moves to the cheapest catalogue type of the same provider, pricing model and GPU model with at
// least the GPUs the work keeps busy at once and room for its peak memory. Without such a type,
// the advice is to consolidate, worth the idle GPUs' ledger cost. Reserve advice is held back for
// such a host (rule-pricing.ts) and only mentioned in the text, so the savings never add up twice.

const sameGpu = (a: string, b: string) =>
  a.toLowerCase().replace(/[^a-z0-9]/g, "") === b.toLowerCase().replace(/[^a-z0-9]/g, "");

/** Cheapest type with the same GPU, fewer GPUs than now, at least `needed`, enough memory each. */
export function smallerSameGpu(
  input: RecoInput,
  current: PricedLookup,
  needed: number,
  memNeeded: bigint,
): Pick | null {
  let best: Pick | null = null;
  for (const { instanceType: t, price } of otherPricedTypes(input)) {
    if (!sameGpu(price.gpuModel, current.gpuModel)) continue;
    if (price.gpuCount < needed || price.gpuCount >= current.gpuCount) continue;
    if (price.gpuMemoryBytes < memNeeded || price.usdPerHourMicros >= current.usdPerHourMicros)
      continue;
    const b = best?.price;
    if (
      !b ||
      price.usdPerHourMicros < b.usdPerHourMicros ||
      (price.usdPerHourMicros === b.usdPerHourMicros && price.gpuCount < b.gpuCount)
    )
      best = { instanceType: t, price };
  }
  return best;
}

/** "Reserve once right-sized" text: the target's reserved price where the catalogue has one. */
function reserveAfter(
  input: RecoInput,
  instanceType: string,
  current: PricedLookup,
  done: "right-sized" | "consolidated",
): string {
  const { host, now } = input;
  if (host.pricingModel !== "on_demand") return "";
  const rv = lookupPrice(input.prices, {
    ...host,
    instanceType,
    pricingModel: "reserved",
    at: now,
  });
  if (!rv.priced || rv.usdPerHourMicros >= current.usdPerHourMicros)
    return " Reserve only once the GPUs are busy: a commitment would lock in the idle ones.";
  return ` Once ${done} and busy, ${instanceType} reserved costs ${hourly(rv.usdPerHourMicros)}: reserve then, not before (that further saving is not counted here).`;
}

const pct1 = (v: number) => `${Math.round(v * 1000) / 10} %`;

export function idleGpus(input: RecoInput, o: RecoOptions): Candidate | null {
  const { host, now } = input;
  // A reservation is paid for its term whatever runs: nothing to save until it ends.
  if (host.pricingModel === "reserved") return null;
  const from = new Date(now.getTime() - o.reservedWindowDays * DAY_MS);
  const f = gpuIdleFacts(input, from, now, o);
  if (!rightSizeFirst(f, o)) return null;
  // At least the short window's worth of running time before judging how many GPUs the work needs.
  if (f.runSeconds < o.windowDays * 86_400) return null;
  const current = lookupPrice(input.prices, { ...host, at: now });
  if (!current.priced) return null;
  const headroomPct = BigInt(Math.round(o.memHeadroom * 100));
  const memNeeded = ((f.memPeakBytes ?? 0n) * headroomPct + 99n) / 100n;
  const pick = smallerSameGpu(input, current, f.needed, memNeeded);
  const rows = within(input.rows, from, now);
  const observed = `Over the last ${o.reservedWindowDays} days at most ${f.needed} of ${f.gpuCount} ${current.gpuModel} GPUs on ${host.hostname} were busy at once (p95 of the hourly count); ${pct1(f.idleShare)} of its GPU-hours were idle, ${formatMoney(f.idleMonthlyMicros)} a month of idle cost in the ledger.`;
  const heldCaveat =
    f.idleSeconds > 0 && f.idleHeldSeconds * 2 >= f.idleSeconds
      ? `memory stays allocated on the idle GPUs: ask ${host.owner ?? "the owner"} which job holds them`
      : null;
  const metrics = {
    gpuCount: f.gpuCount,
    busyGpusP95: f.busyP95,
    gpusNeeded: f.needed,
    idleGpus: f.surplus,
    gpuIdleShare: Math.round(f.idleShare * 1000) / 1000,
    gpuIdleShareMax: o.gpuIdleShareMax,
    heldShare:
      f.idleSeconds > 0 ? Math.round((f.idleHeldSeconds / f.idleSeconds) * 1000) / 1000 : 0,
    peakMemBytes: f.memPeakBytes === null ? null : Number(f.memPeakBytes),
    hoursJudged: f.hours,
    idleCostMicros: f.idleCostMicros.toString(),
    idleMonthlyMicros: f.idleMonthlyMicros.toString(),
  };
  const base = {
    kind: "right_size" as const,
    fingerprint: `right_size:${host.id}`,
    hostId: host.id,
    gpuUuid: null,
  };
  if (pick) {
    const diff = current.usdPerHourMicros - pick.price.usdPerHourMicros;
    return {
      ...base,
      title: `Right-size ${host.hostname}: ${host.instanceType} → ${pick.instanceType}, ${f.surplus} of ${f.gpuCount} GPUs idle`,
      details: `${observed} ${pick.instanceType} (${pick.price.gpuCount} × ${pick.price.gpuModel}, ${formatBytes(Number(pick.price.gpuMemoryBytes))} each) fits that with ${Math.round((o.memHeadroom - 1) * 100)} % memory headroom for ${hourly(pick.price.usdPerHourMicros)} instead of ${hourly(current.usdPerHourMicros)}: ${hourly(diff)} less.${reserveAfter(input, pick.instanceType, current, "right-sized")}`,
      evidence: {
        ...window(f, rows),
        metrics: { ...metrics, candidateGpuCount: pick.price.gpuCount },
        current: priceRef(host.instanceType, host.pricingModel, current),
        proposed: priceRef(pick.instanceType, host.pricingModel, pick.price),
        hourlySavingMicros: diff.toString(),
        convention: CONVENTION,
        caveat: heldCaveat,
      },
      monthlySavingMicros: monthlyFromHourly(diff),
    };
  }
  // No smaller type with this GPU: consolidating saves at most the surplus GPUs' share of the
  // price, and at most what the ledger says their idle time costs.
  const shareMonthly = mulDivRound(
    current.usdPerHourMicros * BigInt(HOURS_PER_MONTH),
    BigInt(f.surplus),
    BigInt(Math.max(f.gpuCount, current.gpuCount)),
  );
  const monthly = f.idleMonthlyMicros < shareMonthly ? f.idleMonthlyMicros : shareMonthly;
  if (monthly <= 0n) return null;
  return {
    ...base,
    title: `Consolidate ${host.hostname} (${host.instanceType}): ${f.surplus} of ${f.gpuCount} GPUs idle`,
    details: `${observed} No ${host.provider} type with fewer ${current.gpuModel} GPUs (at least ${f.needed}) is in the catalogue at ${host.pricingModel.replace("_", "-")} prices, so the idle GPUs cannot be shed by resizing: move the work of another host onto them (or this host's work onto another host's idle GPUs) and release one.${reserveAfter(input, host.instanceType, current, "consolidated")}`,
    evidence: {
      ...window(f, rows),
      metrics: { ...metrics, surplusShareMonthlyMicros: shareMonthly.toString() },
      current: priceRef(host.instanceType, host.pricingModel, current),
      proposed: null,
      hourlySavingMicros: mulDivRound(monthly, 1n, BigInt(HOURS_PER_MONTH)).toString(),
      convention: `${CONVENTION}; consolidate: the ledger's idle cost of the GPU rows over the window ÷ the hours the host ran × 730 h, capped at the idle GPUs' share of the price × 730 h`,
      caveat: heldCaveat ?? "the saving comes only once a host is released after consolidating",
    },
    monthlySavingMicros: monthly,
  };
}

/** The evidence chart per day: idle %, utilization and memory from the GPU rows (GPU-level, as
 * judged here), up % from the host rows (GPU rows would add up to more than the day). */
function window(f: GpuIdleFacts, rows: readonly HourRow[]) {
  const gpu = dailySeries(
    rows.filter((r) => r.gpuKey !== "host"),
    f.from,
    f.to,
  );
  const host = dailySeries(hostRowsOf(rows), f.from, f.to);
  return {
    from: f.from.toISOString(),
    to: f.to.toISOString(),
    series: gpu.map((p, i) => ({ ...p, upPct: host[i]?.upPct ?? null })),
  };
}
