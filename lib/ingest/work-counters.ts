// Work counters in an exporter's exposition (issue 28): gpufleet_work_units_total series, and the
// hourly increases they add up to. Pure: the recorder (work-hours.ts) keeps the state and writes.
// A counter that drops was reset (a server restart): the increase is its new value. A series' first
// sample gives no increase (what it counted before we saw it is not this hour's work), but it does
// mark the hour as counted, so an idle hour with the server up reads 0 units, not "no data".
import { HOUR_MS } from "../core/time.ts";
import { WORK_METRIC, WORK_UNITS, type WorkUnit } from "../../exporter/contract.ts";
import type { Sample } from "./exposition.ts";

export interface WorkSeries {
  unit: WorkUnit;
  modelName: string;
  job: string;
  source: string;
  value: number;
}

export interface WorkRead {
  series: WorkSeries[];
  /** WORK_METRIC samples skipped: an unknown unit, a negative or non-finite value */
  skipped: number;
}

const UNITS = new Set<string>(WORK_UNITS);

export function workFromSamples(samples: readonly Sample[]): WorkRead {
  const series: WorkSeries[] = [];
  let skipped = 0;
  for (const s of samples) {
    if (s.name !== WORK_METRIC) continue;
    const unit = s.labels.unit ?? "";
    if (!UNITS.has(unit) || !Number.isFinite(s.value) || s.value < 0) {
      skipped++;
      continue;
    }
    series.push({
      unit: unit as WorkUnit,
      modelName: s.labels.model_name ?? "",
      job: s.labels.job ?? "",
      source: s.labels.source ?? "",
      value: s.value,
    });
  }
  return { series, skipped };
}

/** One hour's increase of one (host, unit, model, job); the unit of WorkHour rows. */
export interface WorkDelta {
  hostId: string;
  hourStart: Date;
  unit: WorkUnit;
  modelName: string;
  job: string;
  source: string;
  /** what this scrape added; 0 for a series seen for the first time this hour */
  units: number;
}

export interface WorkState {
  /** last value per series (host, unit, model, job, source) */
  last: Map<string, number>;
  /** hour rows already written (host, hour, unit, model, job): a 0 increase needs no write */
  written: Set<string>;
}

export function newWorkState(): WorkState {
  return { last: new Map(), written: new Set() };
}

export function hourRowKey(d: Omit<WorkDelta, "units" | "source">): string {
  return [d.hostId, d.hourStart.getTime(), d.unit, d.modelName, d.job].join("\u0000");
}

/** Increase of a counter from `prev` to `value`: a drop is a reset, so the new value is all new. */
export function counterIncrease(prev: number | undefined, value: number): number {
  if (prev === undefined) return 0;
  return value >= prev ? value - prev : value;
}

/**
 * Folds one scrape's work series of one host at `at` (epoch ms) into the state; returns the hour
 * rows to add to (units > 0, or a row not yet written this hour). Series merge by (unit, model,
 * job): two sources counting the same thing on one host add up.
 */
export function foldWork(
  state: WorkState,
  hostId: string,
  series: readonly WorkSeries[],
  at: number,
): WorkDelta[] {
  const hourStart = new Date(at - (at % HOUR_MS));
  const out = new Map<string, WorkDelta>();
  for (const s of series) {
    const seriesKey = [hostId, s.unit, s.modelName, s.job, s.source].join("\u0000");
    const inc = counterIncrease(state.last.get(seriesKey), s.value);
    state.last.set(seriesKey, s.value);
    const d = { hostId, hourStart, unit: s.unit, modelName: s.modelName, job: s.job };
    const key = hourRowKey(d);
    const cur = out.get(key);
    if (cur) cur.units += inc;
    else out.set(key, { ...d, source: s.source, units: inc });
  }
  return [...out.values()].filter((d) => d.units > 0 || !state.written.has(hourRowKey(d)));
}

/** Forgets the series of hosts not in `hostIds` (deleted targets), so state stays bounded. */
export function pruneWorkState(state: WorkState, hostIds: ReadonlySet<string>, now: number): void {
  for (const k of state.last.keys()) {
    if (!hostIds.has(k.slice(0, k.indexOf("\u0000")))) state.last.delete(k);
  }
  const hour = now - (now % HOUR_MS);
  for (const k of state.written) {
    const parts = k.split("\u0000");
    if (Number(parts[1]) < hour) state.written.delete(k);
  }
}
