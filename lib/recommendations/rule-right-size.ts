import { formatBytes } from "../format/number.ts";
import { lookupPrice } from "../pricing/lookup.ts";
import { gpuWindows, inUse } from "./gpu-stats.ts";
import { otherPricedTypes, type Pick } from "./other-types.ts";
import { dailySeries, hostRowsOf, hourly, monthlyFromHourly, priceRef, within } from "./stats.ts";
import { CONVENTION, type Candidate, type RecoInput, type RecoOptions } from "./types.ts";

// Right-size: over the last 7 days even the busiest GPU in use stayed under the utilization bar
// at p95, so the cheapest catalogue instance (same provider and pricing model) with enough GPUs,
// each with the observed peak memory plus headroom, does the same work for less.

function cheapestFit(
  input: RecoInput,
  gpusNeeded: number,
  memNeeded: bigint,
  below: bigint,
): Pick | null {
  let best: Pick | null = null;
  for (const { instanceType: t, price } of otherPricedTypes(input)) {
    if (price.gpuCount < gpusNeeded || price.gpuMemoryBytes < memNeeded) continue;
    if (price.usdPerHourMicros >= below) continue;
    if (!best || price.usdPerHourMicros < best.price.usdPerHourMicros)
      best = { instanceType: t, price };
  }
  return best;
}

export function rightSize(input: RecoInput, o: RecoOptions): Candidate | null {
  const { host, now } = input;
  if (host.pricingModel === "reserved") return null;
  if (host.gpus.some((g) => g.migMode || g.parentUuid !== null)) return null;
  const from = new Date(now.getTime() - o.windowDays * 86_400_000);
  const rows = within(input.rows, from, now);
  const gpus = gpuWindows(host, rows);
  if (gpus.length === 0 || gpus.some((g) => g.hours < 24)) return null;
  const used = gpus.filter(inUse);
  if (used.length === 0) return null; // nothing runs: that is the idle-release case
  const p95 = Math.max(...used.map((g) => g.utilP95 ?? 0));
  if (p95 >= o.rightSizeUtilP95) return null;
  const peak = used.reduce(
    (m, g) => (g.memPeakBytes !== null && g.memPeakBytes > m ? g.memPeakBytes : m),
    0n,
  );
  const headroomPct = BigInt(Math.round(o.memHeadroom * 100));
  const memNeeded = (peak * headroomPct + 99n) / 100n;
  const current = lookupPrice(input.prices, { ...host, at: now });
  if (!current.priced) return null;
  const pick = cheapestFit(input, used.length, memNeeded, current.usdPerHourMicros);
  if (!pick) return null;
  const diff = current.usdPerHourMicros - pick.price.usdPerHourMicros;
  const hostRows = hostRowsOf(rows);
  return {
    kind: "right_size",
    fingerprint: `right_size:${host.id}`,
    hostId: host.id,
    gpuUuid: null,
    title: `Right-size ${host.hostname}: ${host.instanceType} → ${pick.instanceType}`,
    details: `Over 7 days the busiest GPU in use peaked at ${Math.round(p95 * 100)} % utilization (p95) and ${formatBytes(Number(peak))} of memory. ${pick.instanceType} (${pick.price.gpuCount} × ${pick.price.gpuModel}, ${formatBytes(Number(pick.price.gpuMemoryBytes))} each) fits that with ${Math.round((o.memHeadroom - 1) * 100)} % headroom for ${hourly(pick.price.usdPerHourMicros)} instead of ${hourly(current.usdPerHourMicros)}: ${hourly(diff)} less.`,
    evidence: {
      from: from.toISOString(),
      to: now.toISOString(),
      metrics: {
        utilP95: p95,
        peakMemBytes: Number(peak),
        gpuMemoryBytes: Number(current.gpuMemoryBytes),
        gpusInUse: used.length,
        gpuCount: gpus.length,
        candidateGpuMemoryBytes: Number(pick.price.gpuMemoryBytes),
        utilThreshold: o.rightSizeUtilP95,
      },
      series: dailySeries(hostRows, from, now),
      current: priceRef(host.instanceType, host.pricingModel, current),
      proposed: priceRef(pick.instanceType, host.pricingModel, pick.price),
      hourlySavingMicros: diff.toString(),
      convention: CONVENTION,
      caveat: `a smaller GPU (${pick.price.gpuModel}) is slower: check latency before switching`,
    },
    monthlySavingMicros: monthlyFromHourly(diff),
  };
}
