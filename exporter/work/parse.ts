// Exposition text → work series, for both inputs of issue 28:
// - a textfile (*.prom written by a job): only gpufleet_work_units_total is taken, strictly;
// - an inference server's /metrics (relay, simulator): its own counters (WORK_COUNTERS) are
//   mapped to units; every other series is ignored.
// The sample parser is the exporter's own (dcgm/parse-text.ts, also used for dcgm-exporter):
// the npm parser in reach rejects whole pages over an empty HELP line (lib/ingest/exposition.ts).

import { WORK_COUNTERS, WORK_LABELS, WORK_METRIC, WORK_UNITS, type WorkUnit } from "../contract.ts";
import { parsePrometheusText, type Sample } from "../dcgm/parse-text.ts";
import { MAX_LABEL_VALUE, type ErrorCounts, type WorkSeries } from "./series.ts";

const COUNTERS = new Map(WORK_COUNTERS.map((c) => [c.name, c]));
const ALLOWED_TEXTFILE_LABELS = new Set<string>(WORK_LABELS);

export interface TextfileResult {
  series: WorkSeries[];
  /** set when the file is rejected whole (it does not parse): nothing of it is served */
  fatal?: string;
}

/**
 * A job's textfile. Like node_exporter, a file that does not parse is rejected whole (a half
 * written or corrupt file must not serve half its counters). Within a parsed file, a sample with
 * an unknown unit, a foreign label, a bad value or a name other than gpufleet_work_units_total is
 * skipped and counted; the rest of the file is served. `job` defaults to the file's name.
 */
export function parseTextfile(
  text: string,
  defaultJob: string,
  errors: ErrorCounts,
): TextfileResult {
  const parsed = parsePrometheusText(text);
  if (parsed.warnings.length > 0) {
    errors.add("parse");
    return { series: [], fatal: parsed.warnings[0] };
  }
  const series: WorkSeries[] = [];
  for (const s of parsed.items) {
    if (s.name !== WORK_METRIC) {
      errors.add("unknown_series");
      continue;
    }
    const problem = textfileProblem(s);
    if (problem) {
      errors.add(problem);
      continue;
    }
    series.push({
      unit: s.labels.unit as WorkUnit,
      modelName: s.labels.model_name ?? "",
      job: s.labels.job || defaultJob,
      source: "textfile",
      value: s.value,
    });
  }
  return { series };
}

function textfileProblem(s: Sample): string | undefined {
  const { labels } = s;
  if (!WORK_UNITS.includes(labels.unit as WorkUnit)) return "unknown_unit";
  for (const [k, v] of Object.entries(labels)) {
    if (!ALLOWED_TEXTFILE_LABELS.has(k)) return "unknown_label";
    if (v.length > MAX_LABEL_VALUE) return "label_too_long";
  }
  // a job may say where its counts come from, but only as what they are
  if (labels.source !== undefined && labels.source !== "textfile") return "bad_source";
  if (!Number.isFinite(s.value) || s.value < 0) return "bad_value";
  return undefined;
}

export interface ServerResult {
  series: WorkSeries[];
  /** lines of the page that did not parse (skipped; the rest of the page is read) */
  invalidLines: number;
}

/**
 * An inference server's /metrics page → one series per (counter, model), summing the series that
 * differ only in other labels (vLLM's finished_reason and engine, Triton's version, SGLang's
 * tp_rank). `job` names the server (the relay uses its host:port).
 */
export function mapServerMetrics(text: string, job: string): ServerResult {
  const parsed = parsePrometheusText(text);
  const sums = new Map<string, WorkSeries>();
  for (const s of parsed.items) {
    const counter = COUNTERS.get(s.name);
    if (!counter || !Number.isFinite(s.value) || s.value < 0) continue;
    const model = counter.modelLabel ? (s.labels[counter.modelLabel] ?? "") : "";
    if (model.length > MAX_LABEL_VALUE) continue;
    const key = `${counter.name}\u0000${model}`;
    const prev = sums.get(key);
    if (prev) prev.value += s.value;
    else {
      sums.set(key, {
        unit: counter.unit,
        modelName: model,
        job,
        source: counter.source,
        value: s.value,
      });
    }
  }
  // two counters of one server may map to one unit (Triton: none today); keep them apart by
  // summing per (unit, model) so the served series stay unique
  const out = new Map<string, WorkSeries>();
  for (const s of sums.values()) {
    const key = `${s.source}\u0000${s.unit}\u0000${s.modelName}`;
    const prev = out.get(key);
    if (prev) prev.value += s.value;
    else out.set(key, s);
  }
  return { series: [...out.values()], invalidLines: parsed.warnings.length };
}
