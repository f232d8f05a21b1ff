// Work counters (issue 28): what the textfile collector, the relay and the simulator turn their
// input into, and what metrics-work.ts serves as gpufleet_work_units_total. Values are the
// producers' own cumulative counts, passed through as they are: a counter that restarts (a job or
// a server restarted) is served as the restart it was; the app handles resets.

import type { WorkSource, WorkUnit } from "../contract.ts";

export interface WorkSeries {
  unit: WorkUnit;
  /** "" when the producer names no model */
  modelName: string;
  job: string;
  source: WorkSource;
  value: number;
}

/** One collector's latest reading, kept per host under the collector's slot (state.ts). */
export interface WorkPart {
  /** "textfile", "relay" or "simulated": the collector label of the error counter */
  collector: string;
  series: WorkSeries[];
  /** cumulative count of skipped inputs by reason, since the exporter started */
  errors: ReadonlyMap<string, number>;
  /** relay: whether each target answered at the last tick */
  targets?: readonly { target: string; up: boolean }[];
  /** textfile: each *.prom file seen at the last tick */
  files?: readonly { file: string; mtimeSeconds: number; error: boolean }[];
}

/** At most this many work series per host: a runaway producer cannot grow the exposition. */
export const MAX_WORK_SERIES = 500;
/** Label values longer than this are refused (model names are paths at most). */
export const MAX_LABEL_VALUE = 256;

/** Identity of a series: two producers writing the same one is an error, not a sum. */
export function seriesKey(s: Pick<WorkSeries, "unit" | "modelName" | "job" | "source">): string {
  return `${s.unit}\u0000${s.modelName}\u0000${s.job}\u0000${s.source}`;
}

/** Counts of skipped inputs, by reason, that only ever grow. */
export class ErrorCounts {
  readonly counts = new Map<string, number>();
  add(reason: string, n = 1): void {
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + n);
  }
}
