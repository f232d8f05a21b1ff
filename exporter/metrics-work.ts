// gpufleet_work_units_total (contract WORK_METRIC) and the work collectors' own health, filled
// from the host's work parts (exporter/work/) at each publish.

import { WORK_EXPORTER_METRICS, WORK_METRIC } from "./contract.ts";
import { Counter, Gauge, type Registry } from "./prom.ts";
import type { StateView } from "./state.ts";
import { MAX_WORK_SERIES, seriesKey } from "./work/series.ts";

const {
  errors: WORK_ERRORS_METRIC,
  targetUp: WORK_TARGET_UP_METRIC,
  textfileError: TEXTFILE_ERROR_METRIC,
  textfileMtime: TEXTFILE_MTIME_METRIC,
} = WORK_EXPORTER_METRICS;

export function createWorkMetrics(registry: Registry): (view: StateView) => void {
  const r = [registry];
  const work = new Counter({
    name: WORK_METRIC,
    help: "Units of work done (tokens, requests, samples...), as the job or server counted them.",
    labelNames: ["unit", "model_name", "job", "source"],
    registers: r,
  });
  const errors = new Counter({
    name: WORK_ERRORS_METRIC,
    help: "Work inputs skipped (bad textfile, unknown unit or series, server down...), by reason.",
    labelNames: ["collector", "reason"],
    registers: r,
  });
  const up = new Gauge({
    name: WORK_TARGET_UP_METRIC,
    help: "1 if the relayed inference server's /metrics answered at the last tick, else 0.",
    labelNames: ["target"],
    registers: r,
  });
  // unlabelled, so it would read 0 on hosts without the collector: registered only with it
  const fileError = new Gauge({
    name: TEXTFILE_ERROR_METRIC,
    help: "1 if any *.prom file could not be read or parsed at the last tick, else 0.",
    registers: [],
  });
  let fileErrorShown = false;
  const mtime = new Gauge({
    name: TEXTFILE_MTIME_METRIC,
    help: "Modification time of each *.prom file read at the last tick.",
    labelNames: ["file"],
    registers: r,
  });
  return (view) => {
    for (const m of [work, errors, up, mtime]) m.reset();
    const seen = new Set<string>();
    let textfiles = false;
    let textfileError = 0;
    for (const part of view.work) {
      for (const s of part.series) {
        const key = seriesKey(s);
        // the simulator's host-0 series and a textfile's may collide: the first part wins
        if (seen.has(key) || seen.size >= MAX_WORK_SERIES) continue;
        seen.add(key);
        const labels = { unit: s.unit, model_name: s.modelName, job: s.job, source: s.source };
        work.inc(labels, s.value);
      }
      for (const [reason, n] of part.errors) errors.inc({ collector: part.collector, reason }, n);
      for (const t of part.targets ?? []) up.set({ target: t.target }, t.up ? 1 : 0);
      if (part.files) {
        textfiles = true;
        for (const f of part.files) {
          if (f.error) textfileError = 1;
          mtime.set({ file: f.file }, f.mtimeSeconds);
        }
      }
    }
    if (textfiles !== fileErrorShown) {
      if (textfiles) registry.registerMetric(fileError);
      else registry.removeSingleMetric(TEXTFILE_ERROR_METRIC);
      fileErrorShown = textfiles;
    }
    fileError.set(textfileError);
  };
}
