// Cost per unit of work from an hourly price and a measured throughput per instance:
// - a rate of work ("tokens/s", "images/s", "samples/s"): the dollars one hour buys ÷ the work
//   one hour does, per million tokens or per thousand of anything else;
// - a capacity ("TFLOPS" from HPL, "GB/s" from STREAM): dollars per unit-hour (price ÷ value).
// Exact in micro-dollars: the value is taken to a thousandth and the division is rounded once.
import { divRoundHalfUp } from "../core/money.ts";

const SECONDS_PER_HOUR = 3600n;
const BANDWIDTH = /^[kmgtp]?i?b\/s$/i;

export interface UnitCost {
  /** "$ per million tokens", "$ per 1000 images", "$ per TFLOPS-hour" */
  per: string;
  micros: bigint;
}

function thousandths(value: number): bigint | null {
  if (!Number.isFinite(value) || value <= 0) return null;
  const t = BigInt(Math.round(value * 1000));
  return t > 0n ? t : null;
}

export function unitCost(usdPerHourMicros: bigint, value: number, unit: string): UnitCost | null {
  const v = thousandths(value);
  if (v === null) return null;
  const u = unit.trim();
  const rate = /^(.+)\/s$/.exec(u);
  if (rate && !BANDWIDTH.test(u) && !/flops/i.test(u)) {
    const thing = (rate[1] ?? "").trim();
    const million = /^tokens?$/i.test(thing);
    const scale = million ? 1_000_000n : 1000n;
    return {
      per: `$ per ${million ? "million" : "1000"} ${thing}`,
      micros: divRoundHalfUp(usdPerHourMicros * scale * 1000n, v * SECONDS_PER_HOUR),
    };
  }
  return { per: `$ per ${u}-hour`, micros: divRoundHalfUp(usdPerHourMicros * 1000n, v) };
}
