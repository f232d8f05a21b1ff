// Who held a ledger GPU-hour (issue 24; docs/architecture.md "Domain rules", holders). Pure.
// Each sample inside the hour stands for the time it covers (as in ledger-scan.ts); that time goes
// to the sample's holders in proportion to the memory each held (memory-seconds), or to "nobody"
// when no process named a holder. A GPU row's cost is split by those weights, its idle cost and
// idle seconds by the same weights over its low samples only (who held it while it sat idle). The
// shares are exact micro-dollars (splitByWeights): the holders' rows plus the part nobody held sum
// to the GPU row.
import { HOUR_MS } from "../core/time.ts";
import { holderKey, type Holder } from "../core/holders.ts";
import { splitByWeights } from "../core/money.ts";
import { isLow } from "./ledger-scan.ts";
import {
  DEFAULT_IDLE_RULE,
  type HostSample,
  type IdleRule,
  type LedgerRow,
} from "./ledger-types.ts";

export interface HolderShare {
  gpuKey: string;
  holder: Holder;
  holderKey: string;
  /** share of the GPU-hour held, in millionths */
  sharePpm: number;
  memByteSeconds: bigint;
  costMicros: bigint;
  idleSeconds: number;
  idleCostMicros: bigint;
}

interface Acc {
  holder: Holder;
  heldMs: number;
  idleMs: number;
  memByteMs: number;
}

/** Weights in whole microseconds-equivalents, so splitByWeights gets integers. */
const weight = (ms: number): bigint => BigInt(Math.round(ms * 1000));

function split(total: bigint, holders: readonly bigint[], nobody: bigint): bigint[] {
  const weights = [...holders, nobody];
  if (weights.every((w) => w === 0n)) return holders.map(() => 0n);
  return splitByWeights(total, weights).slice(0, holders.length);
}

/** The holder shares of one host's GPU rows for one hour, from the same samples the rows came from. */
export function holderShares(
  rows: readonly LedgerRow[],
  samples: readonly HostSample[],
  hourStart: Date,
  intervalSeconds: number,
  idle: Partial<IdleRule> = {},
): HolderShare[] {
  const rule: IdleRule = { ...DEFAULT_IDLE_RULE, ...idle };
  const startMs = hourStart.getTime();
  const endMs = startMs + HOUR_MS;
  const sorted = samples
    .filter((s) => s.up && s.t.getTime() >= startMs && s.t.getTime() < endMs)
    .sort((x, y) => x.t.getTime() - y.t.getTime());
  const perUnit = new Map<
    string,
    { holders: Map<string, Acc>; nobodyMs: number; nobodyIdleMs: number }
  >();
  sorted.forEach((s, i) => {
    const t = s.t.getTime();
    const next = sorted[i + 1];
    const span = next
      ? Math.min(intervalSeconds * 1000, next.t.getTime() - t)
      : intervalSeconds * 1000;
    const covered = Math.max(0, Math.min(t + span, endMs) - t);
    for (const g of s.gpus) {
      const unit = perUnit.get(g.uuid) ?? { holders: new Map(), nobodyMs: 0, nobodyIdleMs: 0 };
      perUnit.set(g.uuid, unit);
      const low = isLow(g, rule);
      const hs = (g.holders ?? []).filter((h) => h.memBytes >= 0);
      if (hs.length === 0) {
        unit.nobodyMs += covered;
        if (low) unit.nobodyIdleMs += covered;
        continue;
      }
      const memSum = hs.reduce((sum, h) => sum + h.memBytes, 0);
      for (const h of hs) {
        const part = memSum > 0 ? h.memBytes / memSum : 1 / hs.length;
        const k = holderKey(h.holder);
        const acc = unit.holders.get(k) ?? { holder: h.holder, heldMs: 0, idleMs: 0, memByteMs: 0 };
        unit.holders.set(k, acc);
        acc.heldMs += covered * part;
        if (low) acc.idleMs += covered * part;
        acc.memByteMs += h.memBytes * covered;
      }
    }
  });

  const out: HolderShare[] = [];
  for (const row of rows) {
    if (row.kind !== "gpu" && row.kind !== "mig_slice") continue;
    const unit = perUnit.get(row.gpuKey);
    if (!unit || unit.holders.size === 0) continue;
    const accs = [...unit.holders.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const held = accs.map(([, a]) => weight(a.heldMs));
    const idleW = accs.map(([, a]) => weight(a.idleMs));
    const anyIdle = idleW.some((w) => w > 0n) || unit.nobodyIdleMs > 0;
    // no low sample inside the hour (the idle stretch began before it): the holding weights decide
    const [iw, inobody] = anyIdle
      ? [idleW, weight(unit.nobodyIdleMs)]
      : [held, weight(unit.nobodyMs)];
    const cost = split(row.costMicros, held, weight(unit.nobodyMs));
    const idleCost = split(row.idleCostMicros, iw, inobody);
    const idleSecs = split(BigInt(row.idleSeconds), iw, inobody);
    const totalMs = accs.reduce((s, [, a]) => s + a.heldMs, unit.nobodyMs);
    accs.forEach(([k, a], j) => {
      out.push({
        gpuKey: row.gpuKey,
        holder: a.holder,
        holderKey: k,
        sharePpm: totalMs > 0 ? Math.round((a.heldMs / totalMs) * 1e6) : 0,
        memByteSeconds: BigInt(Math.round(a.memByteMs / 1000)),
        costMicros: cost[j] ?? 0n,
        idleSeconds: Number(idleSecs[j] ?? 0n),
        idleCostMicros: idleCost[j] ?? 0n,
      });
    });
  }
  return out;
}
