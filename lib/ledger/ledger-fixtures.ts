// Sample builders shared by the ledger tests (test-only; nothing in the app imports this).
import { catalogueRows } from "../pricing/catalogue.ts";
import { lookupPrice, type PriceLookup } from "../pricing/lookup.ts";
import type { GpuSample, HostAttribution, HostSample, LedgerRow } from "./ledger-types.ts";

export const HOUR = new Date("2026-11-15T10:00:00Z");
export const GIB = 1024 ** 3;

/** The instant `s` seconds after HOUR (negative: the lookback before it). */
export const at = (s: number): Date => new Date(HOUR.getTime() + s * 1000);

export const host = (over: Partial<HostAttribution> = {}): HostAttribution => ({
  provider: "aws",
  instanceType: "g4dn.xlarge",
  region: "us-east-1",
  pricingModel: "on_demand",
  team: "ml",
  project: "llm",
  ...over,
});

/** The catalogue price in force at `when`: by default before AWS's June 2025 P4/P5 cut and the
 * regional rows, so the tests' arithmetic keeps the long-lived list figures (p4d $32.7726/h). */
export const PRICED_AT = new Date("2025-05-15T10:00:00Z");
export const priceOf = (h: HostAttribution, when: Date = PRICED_AT): PriceLookup =>
  lookupPrice(catalogueRows(), { ...h, at: when });

export function gpu(uuid: string, over: Partial<GpuSample> = {}): GpuSample {
  return {
    uuid,
    model: "NVIDIA A100-SXM4-40GB",
    util: 0.8,
    memUsedBytes: 20 * GIB,
    memTotalBytes: 40 * GIB,
    processes: 1,
    ...over,
  };
}

/** Up samples every `step` s at seconds [from, to) relative to HOUR. */
export function series(
  from: number,
  to: number,
  step: number,
  gpus: (s: number) => GpuSample[],
): HostSample[] {
  const out: HostSample[] = [];
  for (let s = from; s < to; s += step) out.push({ t: at(s), up: true, gpus: gpus(s) });
  return out;
}

export const gpuRows = (rows: LedgerRow[]): LedgerRow[] => rows.filter((r) => r.kind !== "host");
export const hostRow = (rows: LedgerRow[]): LedgerRow | undefined =>
  rows.find((r) => r.kind === "host");
