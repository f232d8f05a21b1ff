import { lookupPrice } from "../pricing/lookup.ts";
import { DAY_MS, HOUR_MS } from "../core/time.ts";
import { gpuIdleFacts, rightSizeFirst } from "./gpu-idle.ts";
import { dailySeries, hostRowsOf, hourly, monthlyFromHourly, priceRef, within } from "./stats.ts";
import {
  CONVENTION,
  type Candidate,
  type HourRow,
  type RecoInput,
  type RecoOptions,
} from "./types.ts";

// Pricing-model moves for on-demand hosts: spot for workloads that tolerate interruption, a
// reservation / savings plan for hosts that are up nearly all the time.

export const SPOT_CAVEAT =
  "Spot capacity can be reclaimed with about two minutes' notice (AWS; 30 seconds on GCP and Azure): jobs must checkpoint and resume. Spot prices move with supply; the saving uses the catalogue's typical spot price.";

function busy(r: HourRow): boolean {
  return r.upSeconds > 0 && r.idleSeconds < r.upSeconds / 2 && (r.utilMean ?? 0) >= 0.05;
}

/** Runs of consecutive busy hours (a missing hour ends a run). */
export function busyRuns(rows: readonly HourRow[]): number[] {
  const runs: number[] = [];
  let run = 0;
  let prev: number | null = null;
  for (const r of rows) {
    const t = r.hourStart.getTime();
    if (run > 0 && prev !== null && t - prev !== HOUR_MS) {
      runs.push(run);
      run = 0;
    }
    if (busy(r)) run++;
    else if (run > 0) {
      runs.push(run);
      run = 0;
    }
    prev = t;
  }
  if (run > 0) runs.push(run);
  return runs;
}

export function spot(input: RecoInput, o: RecoOptions): Candidate | null {
  const { host, now } = input;
  if (host.pricingModel !== "on_demand") return null;
  const od = lookupPrice(input.prices, { ...host, at: now });
  const sp = lookupPrice(input.prices, { ...host, pricingModel: "spot", at: now });
  if (!od.priced || !sp.priced || sp.usdPerHourMicros >= od.usdPerHourMicros) return null;
  const from = new Date(now.getTime() - o.windowDays * DAY_MS);
  const rows = hostRowsOf(within(input.rows, from, now));
  const runs = busyRuns(rows);
  const labelled = (host.labels.interruptible ?? "").toLowerCase() === "true";
  const shortJobs = runs.length >= o.spotMinRuns && Math.max(...runs) <= o.spotMaxRunHours;
  if (!labelled && !shortJobs) return null;
  if (runs.length === 0) return null; // nothing runs: release it instead
  const diff = od.usdPerHourMicros - sp.usdPerHourMicros;
  const why = labelled
    ? "it is labelled interruptible=true"
    : `its work comes in short jobs with gaps (${runs.length} jobs in 7 days, the longest ${Math.max(...runs)} h)`;
  return {
    kind: "spot",
    fingerprint: `spot:${host.id}`,
    hostId: host.id,
    gpuUuid: null,
    title: `Run ${host.hostname} (${host.instanceType}) on spot`,
    details: `${host.hostname} runs on-demand, but ${why}. Spot costs ${hourly(sp.usdPerHourMicros)} instead of ${hourly(od.usdPerHourMicros)}. ${SPOT_CAVEAT}`,
    evidence: {
      from: from.toISOString(),
      to: now.toISOString(),
      metrics: {
        labelledInterruptible: labelled,
        jobs: runs.length,
        longestJobHours: runs.length > 0 ? Math.max(...runs) : 0,
        busyHours: runs.reduce((s, n) => s + n, 0),
      },
      series: dailySeries(rows, from, now),
      current: priceRef(host.instanceType, "on_demand", od),
      proposed: priceRef(host.instanceType, "spot", sp),
      hourlySavingMicros: diff.toString(),
      convention: CONVENTION,
      caveat: SPOT_CAVEAT,
    },
    monthlySavingMicros: monthlyFromHourly(diff),
  };
}

export function reserved(input: RecoInput, o: RecoOptions): Candidate | null {
  const { host, now } = input;
  if (host.pricingModel !== "on_demand") return null;
  const od = lookupPrice(input.prices, { ...host, at: now });
  const rv = lookupPrice(input.prices, { ...host, pricingModel: "reserved", at: now });
  if (!od.priced || !rv.priced || rv.usdPerHourMicros >= od.usdPerHourMicros) return null;
  const from = new Date(now.getTime() - o.reservedWindowDays * DAY_MS);
  const rows = hostRowsOf(within(input.rows, from, now));
  const up = rows.reduce((s, r) => s + r.upSeconds, 0);
  const idle = rows.reduce((s, r) => s + r.idleSeconds, 0);
  const upShare = up / (o.reservedWindowDays * 86_400);
  if (upShare < o.reservedUpShare) return null;
  // Idle is judged per GPU (the host row counts only hours with every GPU idle); MIG hosts and
  // rows without GPU rows fall back to the host rows.
  const gpu = gpuIdleFacts(input, from, now, o);
  const idleShare = gpu ? gpu.idleShare : up > 0 ? idle / up : 1;
  // Mostly idle: releasing beats committing to a year of it.
  if (up === 0 || idleShare >= 0.5) return null;
  // GPUs idle beyond what the work keeps busy: right-size (rule-idle-gpus.ts) before reserving.
  if (rightSizeFirst(gpu, o)) return null;
  const diff = od.usdPerHourMicros - rv.usdPerHourMicros;
  const caveat =
    "A reservation or savings plan is a 1-year commitment, paid every hour whether the host runs or not.";
  return {
    kind: "reserved",
    fingerprint: `reserved:${host.id}`,
    hostId: host.id,
    gpuUuid: null,
    title: `Reserve ${host.hostname} (${host.instanceType}): up ${Math.round(upShare * 100)} % of 30 days`,
    details: `${host.hostname} ran ${Math.round(upShare * 1000) / 10} % of the last ${o.reservedWindowDays} days on-demand at ${hourly(od.usdPerHourMicros)}, ${gpu ? "its GPUs" : "the host"} idle ${Math.round(idleShare * 1000) / 10} % of ${gpu ? "their GPU-hours" : "its hours"}; reserved, it costs ${hourly(rv.usdPerHourMicros)} (catalogue: ${rv.note ?? rv.source}). ${caveat}`,
    evidence: {
      from: from.toISOString(),
      to: now.toISOString(),
      metrics: {
        upShare: Math.round(upShare * 1000) / 1000,
        threshold: o.reservedUpShare,
        idleShare: Math.round(idleShare * 1000) / 1000,
        idleBasis: gpu ? "gpu_hours" : "host_hours",
        hostIdleShare: Math.round((idle / up) * 1000) / 1000,
        gpuIdleShareMax: o.gpuIdleShareMax,
        days: o.reservedWindowDays,
      },
      series: dailySeries(rows, from, now),
      current: priceRef(host.instanceType, "on_demand", od),
      proposed: priceRef(host.instanceType, "reserved", rv),
      hourlySavingMicros: diff.toString(),
      convention: CONVENTION,
      caveat,
    },
    monthlySavingMicros: monthlyFromHourly(diff),
  };
}
