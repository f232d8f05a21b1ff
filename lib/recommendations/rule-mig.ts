import { divRoundHalfUp, mulDivRound } from "../core/money.ts";
import { formatBytes } from "../format/number.ts";
import { lookupPrice } from "../pricing/lookup.ts";
import { gpuWindows, inUse, type GpuWindow } from "./gpu-stats.ts";
import { dailySeries, hourly, monthlyFromHourly, priceRef, within } from "./stats.ts";
import { CONVENTION, type Candidate, type RecoInput, type RecoOptions } from "./types.ts";

// MIG / sharing: a whole A100/H100/H200 whose 7-day p95 load fits a MIG slice. The rest of the
// GPU (7 − g of 7 compute slices) could serve other work, so the saving is that share of the
// GPU's price: GPU share × (7 − g) / 7 per hour.

const MIG_CAPABLE = /A100|H100|H200|H800|A800|GH200|B200/i;
const GB = 1_000_000_000n;
const GIB = 1024n ** 3n;

interface Profile {
  slices: number;
  name: string;
  memBytes: bigint;
}

/** MIG profiles with 1-4 of the 7 compute slices, by the GPU's memory class (NVIDIA's tables). */
export function migProfiles(totalBytes: bigint): Profile[] {
  const table: [number, string, number][] =
    totalBytes <= 48n * GIB
      ? [
          [1, "1g.5gb", 5],
          [2, "2g.10gb", 10],
          [3, "3g.20gb", 20],
          [4, "4g.20gb", 20],
        ]
      : totalBytes <= 90n * GIB
        ? [
            [1, "1g.10gb", 10],
            [2, "2g.20gb", 20],
            [3, "3g.40gb", 40],
            [4, "4g.40gb", 40],
          ]
        : totalBytes <= 100n * GIB
          ? [
              [1, "1g.12gb", 12],
              [2, "2g.24gb", 24],
              [3, "3g.47gb", 47],
              [4, "4g.47gb", 47],
            ]
          : [
              [1, "1g.18gb", 18],
              [2, "2g.35gb", 35],
              [3, "3g.71gb", 71],
              [4, "4g.71gb", 71],
            ];
  return table.map(([slices, name, gb]) => ({ slices, name, memBytes: BigInt(gb) * GB }));
}

/** The smallest profile whose compute share holds the p95 and whose memory holds the peak. */
export function smallestFit(g: GpuWindow, headroom = 1.1): Profile | null {
  if (g.utilP95 === null) return null;
  const peak = g.memPeakBytes ?? 0n;
  const needed = (peak * BigInt(Math.round(headroom * 100)) + 99n) / 100n;
  for (const p of migProfiles(g.memTotalBytes)) {
    if (g.utilP95 <= p.slices / 7 && needed <= p.memBytes) return p;
  }
  return null;
}

export function migShare(input: RecoInput, o: RecoOptions): Candidate[] {
  const { host, now } = input;
  const price = lookupPrice(input.prices, { ...host, at: now });
  if (!price.priced || price.gpuCount === 0) return [];
  const from = new Date(now.getTime() - o.windowDays * 86_400_000);
  const rows = within(input.rows, from, now);
  const gpuShare = divRoundHalfUp(price.usdPerHourMicros, BigInt(price.gpuCount));
  const out: Candidate[] = [];
  for (const g of gpuWindows(host, rows)) {
    const spec = host.gpus.find((x) => x.uuid === g.uuid);
    if (!spec || spec.migMode || !MIG_CAPABLE.test(g.name) || g.hours < 24 || !inUse(g)) continue;
    const fit = smallestFit(g);
    if (!fit) continue;
    const hourlySaving = mulDivRound(gpuShare, BigInt(7 - fit.slices), 7n);
    out.push({
      kind: "mig",
      fingerprint: `mig:${host.id}:${g.uuid}`,
      hostId: host.id,
      gpuUuid: g.uuid,
      title: `Share GPU ${g.index} on ${host.hostname} with MIG: its load fits ${fit.name}`,
      details: `GPU ${g.index} (${g.name}) peaked at ${Math.round((g.utilP95 ?? 0) * 100)} % utilization (p95 over 7 days) and ${formatBytes(Number(g.memPeakBytes ?? 0n))} of memory: a ${fit.name} MIG slice (${fit.slices}/7 of the GPU, ${fit.memBytes / GB} GB) holds it. The other ${7 - fit.slices}/7 of the GPU (${hourly(hourlySaving)} of its ${hourly(gpuShare)} share) could run other work instead of renting more GPUs.`,
      evidence: {
        from: from.toISOString(),
        to: now.toISOString(),
        metrics: {
          utilP95: g.utilP95,
          utilMean: g.utilMean,
          peakMemBytes: Number(g.memPeakBytes ?? 0n),
          gpuMemoryBytes: Number(g.memTotalBytes),
          profile: fit.name,
          slices: fit.slices,
          gpuHourlyMicros: gpuShare.toString(),
        },
        series: dailySeries(g.rows, from, now),
        current: priceRef(host.instanceType, host.pricingModel, price),
        proposed: null,
        hourlySavingMicros: hourlySaving.toString(),
        convention: `${CONVENTION}; MIG: GPU share (instance price ÷ GPUs) × (7 − slices) ÷ 7`,
        caveat:
          "saves money only when the freed slices replace GPUs you would otherwise rent; enabling MIG needs a GPU reset",
      },
      monthlySavingMicros: monthlyFromHourly(hourlySaving),
    });
  }
  return out;
}
