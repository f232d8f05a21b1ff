import { lookupPrice } from "../pricing/lookup.ts";
import { HOUR_MS } from "../core/time.ts";
import { dailySeries, hostRowsOf, hourly, monthlyFromHourly, priceRef } from "./stats.ts";
import {
  CONVENTION,
  type Candidate,
  type HourRow,
  type RecoInput,
  type RecoOptions,
} from "./types.ts";

// Stop or release a host whose GPUs have all been idle for a long stretch (default 24 h): the
// trailing run of ledger hours, up to the newest one, in which (nearly) all up time was idle.

export function idleRelease(input: RecoInput, o: RecoOptions): Candidate | null {
  const { host, now } = input;
  const rows = hostRowsOf(input.rows);
  const newest = rows.at(-1);
  // The ledger closes each hour about an hour later: older than 3 h means the host is gone.
  if (!newest || now.getTime() - newest.hourStart.getTime() > 3 * HOUR_MS) return null;
  const streak: HourRow[] = [];
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i];
    if (!r || r.upSeconds === 0 || r.idleSeconds < o.idleShare * r.upSeconds) break;
    const next = streak.at(-1);
    if (next && next.hourStart.getTime() - r.hourStart.getTime() > HOUR_MS) break; // a gap
    streak.push(r);
  }
  if (streak.length < o.idleHours) return null;
  const price = lookupPrice(input.prices, { ...host, at: now });
  // A reservation is paid whether the host runs or not: releasing it saves nothing.
  if (!price.priced || host.pricingModel === "reserved") return null;
  const first = streak[streak.length - 1] ?? newest;
  const idle = streak.reduce((s, r) => s + r.idleSeconds, 0);
  const held = streak.reduce((s, r) => s + r.idleHeldSeconds, 0);
  const heldShare = idle > 0 ? held / idle : 0;
  // The streak can only be as long as the rows loaded: at that limit it is "at least".
  const atLimit = streak.length >= rows.length;
  const days = `${(streak.length / 24).toFixed(1)}${atLimit ? "+" : ""}`;
  const from = first.hourStart;
  const to = new Date(newest.hourStart.getTime() + HOUR_MS);
  const monthly = monthlyFromHourly(price.usdPerHourMicros);
  const heldNote =
    heldShare >= 0.5
      ? ` Memory stays allocated (a process holds the GPUs without using them): ask ${host.owner ?? "the owner"} before stopping it.`
      : " Nothing runs on the GPUs.";
  return {
    kind: "idle_release",
    fingerprint: `idle_release:${host.id}`,
    hostId: host.id,
    gpuUuid: null,
    title: `Stop or release ${host.hostname} (${host.instanceType}): idle for ${days} days`,
    details: `Every GPU on ${host.hostname} has been idle (under 5 % SM) for ${streak.length} hours in a row.${heldNote} Stopping it saves its ${hourly(price.usdPerHourMicros)} ${host.pricingModel.replace("_", "-")} price.`,
    evidence: {
      from: from.toISOString(),
      to: to.toISOString(),
      metrics: {
        idleHours: streak.length,
        idleShare:
          Math.round(
            (idle /
              Math.max(
                1,
                streak.reduce((s, r) => s + r.upSeconds, 0),
              )) *
              1000,
          ) / 1000,
        heldShare: Math.round(heldShare * 1000) / 1000,
        thresholdHours: o.idleHours,
      },
      series: dailySeries(streak, from, to),
      current: priceRef(host.instanceType, host.pricingModel, price),
      proposed: null,
      hourlySavingMicros: price.usdPerHourMicros.toString(),
      convention: CONVENTION,
      caveat: heldShare >= 0.5 ? "a process still holds GPU memory" : null,
    },
    monthlySavingMicros: monthly,
  };
}
