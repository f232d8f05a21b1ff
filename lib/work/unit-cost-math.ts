// Measured cost per unit of work (issue 28), pure: the work a host's own counters counted (hourly
// increases, lib/metrics workHours) against what the ledger says those same hours cost.
// - The hours: the host's ledger hours in the window during which its counters were reported
//   (a WorkHour row, 0 units included). Idle hours inside them are part of what the work cost.
// - Per host by default: a host serving several models has one cost per unit, marked mixed. With
//   split=share, each hour's cost goes to the models by their share of that hour's units; an hour
//   with no work is split by the models' shares over the whole window.
// - A figure needs enough work to mean something: MIN_UNITS of the unit and MIN_HOURS measured
//   hours; below that it is "not enough data", never a number.
// - Exact micro-dollars; $ per million tokens, $ per 1000 of anything else, rounded once.
import { divRoundHalfUp, splitByWeights, sumMicros } from "../core/money.ts";
import type { WorkUnit } from "../../exporter/contract.ts";

export interface LedgerHour {
  hostId: string;
  hourStart: number;
  costMicros: bigint;
  priced: boolean;
}

export interface WorkHour {
  hostId: string;
  hourStart: number;
  unit: WorkUnit;
  modelName: string;
  units: number;
}

export interface HostMeta {
  id: string;
  hostname: string;
  provider: string;
  instanceType: string;
  /** e.g. "1× L4"; null when the store knows no GPUs */
  gpus: string | null;
  team: string;
}

export type UnitCostStatus = "ok" | "not_enough_data" | "unpriced";

export interface UnitCostRow {
  hostId: string;
  hostname: string;
  provider: string;
  instanceType: string;
  gpus: string | null;
  unit: WorkUnit;
  /** the model this row is for; null for a mixed host's per-host row */
  modelName: string | null;
  /** models counted on the host for this unit (several: the host is mixed) */
  models: string[];
  mixed: boolean;
  /** true when this row's cost is a share of the host's, by the model's share of work */
  split: boolean;
  units: number;
  hours: number;
  /** units per second over the measured hours */
  perSecond: number;
  costMicros: bigint;
  /** cost per million tokens / per 1000 units; null unless status is "ok" */
  perMicros: bigint | null;
  per: string;
  status: UnitCostStatus;
}

export const MIN_HOURS = 1;
/** tokens: 1 million; requests, inferences, samples, images: 1000 */
export function minUnits(unit: WorkUnit): number {
  return isTokens(unit) ? 1_000_000 : 1000;
}

export function isTokens(unit: WorkUnit): boolean {
  return unit === "prompt_tokens" || unit === "output_tokens";
}

const LABEL: Record<WorkUnit, string> = {
  prompt_tokens: "prompt tokens",
  output_tokens: "output tokens",
  requests: "requests",
  inferences: "inferences",
  samples: "samples",
  images: "images",
};

export function perLabel(unit: WorkUnit): string {
  return isTokens(unit) ? `$ per million ${LABEL[unit]}` : `$ per 1000 ${LABEL[unit]}`;
}

/** The status and price of `units` of work that cost `costMicros` over `hours`. */
export function priceOf(
  unit: WorkUnit,
  units: number,
  hours: number,
  costMicros: bigint,
  priced: boolean,
): { status: UnitCostStatus; perMicros: bigint | null } {
  if (!priced) return { status: "unpriced", perMicros: null };
  if (units < minUnits(unit) || hours < MIN_HOURS)
    return { status: "not_enough_data", perMicros: null };
  const scale = isTokens(unit) ? 1_000_000n : 1000n;
  return { status: "ok", perMicros: divRoundHalfUp(costMicros * scale, BigInt(Math.round(units))) };
}

interface HostUnit {
  /** hourStart → model → units */
  hours: Map<number, Map<string, number>>;
}

const byHostUnit = (work: readonly WorkHour[], ledger: Map<string, LedgerHour>) => {
  const out = new Map<string, HostUnit>();
  for (const w of work) {
    if (!ledger.has(`${w.hostId}\u0000${w.hourStart}`)) continue; // not in the ledger (yet)
    const key = `${w.hostId}\u0000${w.unit}`;
    const hu = out.get(key) ?? { hours: new Map() };
    out.set(key, hu);
    const models = hu.hours.get(w.hourStart) ?? new Map<string, number>();
    hu.hours.set(w.hourStart, models);
    models.set(w.modelName, (models.get(w.modelName) ?? 0) + w.units);
  }
  return out;
};

/** Per host and unit (and per model when `split`), the measured cost per unit of work. */
export function unitCosts(input: {
  hosts: readonly HostMeta[];
  ledger: readonly LedgerHour[];
  work: readonly WorkHour[];
  split: boolean;
}): UnitCostRow[] {
  const ledger = new Map(input.ledger.map((l) => [`${l.hostId}\u0000${l.hourStart}`, l]));
  const hosts = new Map(input.hosts.map((h) => [h.id, h]));
  const rows: UnitCostRow[] = [];
  for (const [key, hu] of byHostUnit(input.work, ledger)) {
    const [hostId = "", unitText = ""] = key.split("\u0000");
    const unit = unitText as WorkUnit;
    const host = hosts.get(hostId);
    if (!host) continue;
    const hourKeys = [...hu.hours.keys()].sort((a, b) => a - b);
    const hourRows = hourKeys.map((h) => ledger.get(`${hostId}\u0000${h}`) as LedgerHour);
    const priced = hourRows.every((l) => l.priced);
    const totals = new Map<string, number>();
    for (const models of hu.hours.values())
      for (const [m, u] of models) totals.set(m, (totals.get(m) ?? 0) + u);
    const models = [...totals.keys()].sort();
    const mixed = models.length > 1;
    const base = { hostId, hostname: host.hostname, provider: host.provider };
    const common = { ...base, instanceType: host.instanceType, gpus: host.gpus, unit, models };
    const make = (
      modelName: string | null,
      units: number,
      hours: number,
      cost: bigint,
      split: boolean,
    ): UnitCostRow => ({
      ...common,
      modelName,
      mixed,
      split,
      units,
      hours,
      perSecond: hours > 0 ? units / (hours * 3600) : 0,
      costMicros: cost,
      per: perLabel(unit),
      ...priceOf(unit, units, hours, cost, priced),
    });
    const hostCost = sumMicros(hourRows.map((l) => l.costMicros));
    const hostUnits = [...totals.values()].reduce((a, b) => a + b, 0);
    if (!input.split || !mixed) {
      rows.push(
        make(mixed ? null : (models[0] ?? ""), hostUnits, hourKeys.length, hostCost, false),
      );
      continue;
    }
    // split: each hour's cost by the models' shares of its units; idle hours by window shares
    const cost = new Map(models.map((m) => [m, 0n]));
    const hoursOf = new Map(models.map((m) => [m, 0]));
    const weightsOf = (units: ReadonlyMap<string, number>) =>
      models.map((m) => BigInt(Math.round(units.get(m) ?? 0)));
    let idle = 0n;
    for (const h of hourKeys) {
      const units = hu.hours.get(h) ?? new Map<string, number>();
      const c = ledger.get(`${hostId}\u0000${h}`)?.costMicros ?? 0n;
      for (const m of units.keys()) hoursOf.set(m, (hoursOf.get(m) ?? 0) + 1);
      const w = weightsOf(units);
      if (w.every((x) => x === 0n)) {
        idle += c;
        continue;
      }
      splitByWeights(c, w).forEach((part, i) => {
        const m = models[i] ?? "";
        cost.set(m, (cost.get(m) ?? 0n) + part);
      });
    }
    if (idle !== 0n) {
      const w = weightsOf(totals);
      const parts = w.every((x) => x === 0n) ? models.map(() => 0n) : splitByWeights(idle, w);
      if (w.every((x) => x === 0n)) parts[0] = idle;
      parts.forEach((part, i) => {
        const m = models[i] ?? "";
        cost.set(m, (cost.get(m) ?? 0n) + part);
      });
    }
    for (const m of models)
      rows.push(make(m, totals.get(m) ?? 0, hoursOf.get(m) ?? 0, cost.get(m) ?? 0n, true));
  }
  return rows.sort(
    (a, b) =>
      a.hostname.localeCompare(b.hostname) ||
      a.unit.localeCompare(b.unit) ||
      (a.modelName ?? "").localeCompare(b.modelName ?? ""),
  );
}

export interface TypeModelRow {
  provider: string;
  instanceType: string;
  gpus: string | null;
  /** the model; for mixed hosts (not split) the models joined with " + " */
  model: string;
  mixed: boolean;
  unit: WorkUnit;
  hosts: number;
  units: number;
  hours: number;
  perSecondPerHost: number;
  costMicros: bigint;
  perMicros: bigint | null;
  per: string;
  status: UnitCostStatus;
}

/** The host rows grouped by provider, instance type, model and unit (the costs page's table). */
export function byTypeAndModel(rows: readonly UnitCostRow[]): TypeModelRow[] {
  const groups = new Map<string, UnitCostRow[]>();
  for (const r of rows) {
    const model = r.modelName ?? r.models.join(" + ");
    const key = [r.provider, r.instanceType, model, r.unit].join("\u0000");
    const g = groups.get(key) ?? [];
    groups.set(key, g);
    g.push(r);
  }
  const out: TypeModelRow[] = [];
  for (const g of groups.values()) {
    const first = g[0] as UnitCostRow;
    const units = g.reduce((a, r) => a + r.units, 0);
    const hours = g.reduce((a, r) => a + r.hours, 0);
    const cost = sumMicros(g.map((r) => r.costMicros));
    const priced = g.every((r) => r.status !== "unpriced");
    out.push({
      provider: first.provider,
      instanceType: first.instanceType,
      gpus: first.gpus,
      model: first.modelName ?? first.models.join(" + "),
      mixed: first.modelName === null,
      unit: first.unit,
      hosts: new Set(g.map((r) => r.hostId)).size,
      units,
      hours,
      perSecondPerHost: hours > 0 ? units / (hours * 3600) : 0,
      costMicros: cost,
      per: first.per,
      ...priceOf(first.unit, units, hours, cost, priced),
    });
  }
  return out.sort(
    (a, b) =>
      a.model.localeCompare(b.model) ||
      a.unit.localeCompare(b.unit) ||
      a.instanceType.localeCompare(b.instanceType),
  );
}
