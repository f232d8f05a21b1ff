// The simulated fleet's own work (issue 28), in closed form like the rest of the simulator:
// - a host with serving GPUs ("inference" profile) runs one vLLM server; its counters follow the
//   serving demand that drives those GPUs' utilization (load.ts), scaled by the GPU model, and
//   restart with the server at each daily redeploy (the process's pid changes then too);
// - a host whose GPUs train (and none serve) writes a textfile with the samples its job has processed, reset
//   when the job restarts (every 1-3 days, as trainingLoad's pids).
// The counters are rendered as the real producers write them (a vLLM /metrics page, a textfile)
// and read back through the exporter's own parsers (work/parse.ts).
// simWorkload(host) says which model each host serves: docs/work-counters.md lists the demo's.

import { WORK_METRIC } from "../contract.ts";
import { mapServerMetrics, parseTextfile } from "../work/parse.ts";
import { ErrorCounts, type WorkPart } from "../work/series.ts";
import { demandAt, jobEpoch, servingShare, trainingJobMinutes } from "./load.ts";
import { hash, unit } from "./rand.ts";
import type { SimFleet, SimHostSpec } from "./types.ts";

const HOUR_MIN = 60;
const DAY_MIN = 1440;
const CH = { promptRatio: 31, requestLen: 32, trainRate: 33, finish: 34 } as const;
/** the relay's job label for a server at the default vLLM address */
export const SIM_VLLM_JOB = "127.0.0.1:8000";

export interface Served {
  model: string;
  /** output tokens per second per GPU at full load */
  outputTokensPerGpu: number;
}

/**
 * What a vLLM server on each GPU model serves, and its decode throughput per GPU at full batch
 * (order of magnitude of public vLLM benchmarks for these pairs; the simulator needs ratios
 * between types that look like the real ones, not a benchmark).
 */
const SERVED: readonly [gpuName: string, served: Served][] = [
  ["NVIDIA L4", { model: "Qwen/Qwen3-8B", outputTokensPerGpu: 1000 }],
  ["NVIDIA A10G", { model: "Qwen/Qwen3-8B", outputTokensPerGpu: 1500 }],
  ["Tesla T4", { model: "Qwen/Qwen3-4B", outputTokensPerGpu: 550 }],
  ["NVIDIA A100", { model: "meta-llama/Llama-3.1-8B-Instruct", outputTokensPerGpu: 3800 }],
  ["NVIDIA H100", { model: "meta-llama/Llama-3.3-70B-Instruct", outputTokensPerGpu: 950 }],
  ["NVIDIA H200", { model: "meta-llama/Llama-3.3-70B-Instruct", outputTokensPerGpu: 1250 }],
];
const SERVED_DEFAULT: Served = { model: "Qwen/Qwen3-4B", outputTokensPerGpu: 450 };

/** training samples per second per GPU (a mid-size model's pretraining step) */
const SAMPLES_PER_GPU: readonly [gpuName: string, perSecond: number][] = [
  ["NVIDIA A100", 190],
  ["NVIDIA H100", 420],
  ["NVIDIA H200", 460],
  ["Tesla V100", 80],
];

export function served(gpuName: string): Served {
  return SERVED.find(([n]) => gpuName.startsWith(n))?.[1] ?? SERVED_DEFAULT;
}

export type SimWorkload =
  | { kind: "vllm"; model: string; job: string; servingGpus: number }
  | { kind: "textfile"; job: string; unit: "samples"; gpus: number };

/**
 * What a simulated host does that counts as work: serving GPUs make a vLLM server (on all of
 * them), else training GPUs make a training job writing a textfile; undefined for hosts that
 * only idle, hang (stuck loops do no work) or serve from MIG slices.
 */
export function simWorkload(host: SimHostSpec): SimWorkload | undefined {
  const serving = host.gpus.filter((g) => g.profile === "inference");
  const first = serving[0];
  if (first) {
    return {
      kind: "vllm",
      model: served(first.name).model,
      job: SIM_VLLM_JOB,
      servingGpus: serving.length,
    };
  }
  const training = host.gpus.filter((g) => g.profile === "training" || g.profile === "faulty");
  if (training.length === 0) return undefined;
  return { kind: "textfile", job: host.project, unit: "samples", gpus: training.length };
}

/** Python prometheus_client's float format (vLLM's): 43952.0, 8.128902e+06. */
export function pyFloat(v: number): string {
  if (!Number.isFinite(v)) return v > 0 ? "+Inf" : v < 0 ? "-Inf" : "NaN";
  let s = String(v);
  if (Number.isInteger(v) && !s.includes("e")) s += ".0";
  const dot = s.indexOf(".");
  if (v > 0 && dot > 6 && !s.includes("e")) {
    const digits = (s.slice(0, dot) + s.slice(dot + 1)).replace(/\.?0+$/, "");
    const mantissa = `${digits[0]}.${digits.slice(1)}`.replace(/\.$/, "");
    return `${mantissa}e+${String(dot - 1).padStart(2, "0")}`;
  }
  return s;
}

/** Whole hours since the job's last restart: the first hour of the current run. */
function sinceRestart(key: number, hour: number, lengthMin: number): number {
  const epoch = jobEpoch(key, hour * HOUR_MIN, lengthMin);
  let first = hour;
  const limit = hour - Math.ceil(lengthMin / HOUR_MIN);
  while (first > limit && jobEpoch(key, (first - 1) * HOUR_MIN, lengthMin) === epoch) first--;
  return first;
}

interface Run {
  hour: number;
  first: number;
  /** the counter at the start of `hour`: rate(h) * 3600 summed over first..hour-1, in order */
  done: number;
}
/** the last hour's sum per host and counter: a tick adds one hour instead of a whole run */
const runs = new WeakMap<SimHostSpec, Run>();

/**
 * A counter that ran at rate(h) per second in each hour h since the job's last restart, read at
 * `ms`. The same value whether computed afresh or carried from the previous hour (same sums in
 * the same order), so the memo only saves time.
 */
function counterAt(
  host: SimHostSpec,
  key: number,
  lengthMin: number,
  ms: number,
  rate: (hour: number) => number,
): number {
  const seconds = ms / 1000;
  const hour = Math.floor(seconds / 3600);
  let run = runs.get(host);
  if (run?.hour !== hour) {
    const prev = run;
    const carried =
      prev !== undefined &&
      prev.hour === hour - 1 &&
      jobEpoch(key, hour * HOUR_MIN, lengthMin) === jobEpoch(key, prev.hour * HOUR_MIN, lengthMin);
    if (carried) run = { hour, first: prev.first, done: prev.done + rate(hour - 1) * 3600 };
    else {
      const first = sinceRestart(key, hour, lengthMin);
      let done = 0;
      for (let h = first; h < hour; h++) done += rate(h) * 3600;
      run = { hour, first, done };
    }
    runs.set(host, run);
  }
  return run.done + rate(hour) * (seconds - hour * 3600);
}

/** The vLLM server's /metrics (its work counters) at `at`, as the server would print them. */
export function renderSimVllm(fleet: SimFleet, host: SimHostSpec, atMs: number): string {
  const w = simWorkload(host);
  if (w?.kind !== "vllm") return "";
  const key = hash(fleet.seed, host.id);
  const perGpu = served(
    host.gpus.find((g) => g.profile === "inference")?.name ?? "",
  ).outputTokensPerGpu;
  // the hour's middle minute stands for the hour: the demand curve moves over hours
  const outRate = (h: number) =>
    w.servingGpus * perGpu * servingShare(key, demandAt(host, h * HOUR_MIN + 30));
  const output = Math.floor(counterAt(host, key, DAY_MIN, atMs, outRate));
  const prompt = Math.floor(output * (2.5 + 2 * unit(key, CH.promptRatio)));
  const requests = Math.floor(output / (180 + 200 * unit(key, CH.requestLen)));
  const stopped = Math.floor(requests * (0.8 + 0.1 * unit(key, CH.finish)));
  const l = `engine="0",model_name="${w.model}"`;
  return [
    "# HELP vllm:prompt_tokens_total Number of prefill tokens processed.",
    "# TYPE vllm:prompt_tokens_total counter",
    `vllm:prompt_tokens_total{${l}} ${pyFloat(prompt)}`,
    "# HELP vllm:generation_tokens_total Number of generation tokens processed.",
    "# TYPE vllm:generation_tokens_total counter",
    `vllm:generation_tokens_total{${l}} ${pyFloat(output)}`,
    "# HELP vllm:request_success_total Count of successfully processed requests.",
    "# TYPE vllm:request_success_total counter",
    `vllm:request_success_total{engine="0",finished_reason="stop",model_name="${w.model}"} ${pyFloat(stopped)}`,
    `vllm:request_success_total{engine="0",finished_reason="length",model_name="${w.model}"} ${pyFloat(requests - stopped)}`,
    "",
  ].join("\n");
}

/** The training job's textfile at `at`, as a job would write it. */
export function renderSimTextfile(fleet: SimFleet, host: SimHostSpec, atMs: number): string {
  const w = simWorkload(host);
  if (w?.kind !== "textfile") return "";
  const key = hash(fleet.seed, host.id);
  const gpuName =
    host.gpus.find((g) => g.profile === "training" || g.profile === "faulty")?.name ?? "";
  const perGpu = SAMPLES_PER_GPU.find(([n]) => gpuName.startsWith(n))?.[1] ?? 100;
  // a step's pace wobbles by the hour (data loading, checkpoints)
  const rate = (h: number) => w.gpus * perGpu * (0.9 + 0.1 * unit(key, CH.trainRate, h));
  const samples = Math.floor(counterAt(host, key, trainingJobMinutes(key), atMs, rate));
  return [
    `# HELP ${WORK_METRIC} Samples processed by the training job.`,
    `# TYPE ${WORK_METRIC} counter`,
    `${WORK_METRIC}{unit="samples",job="${w.job}"} ${samples}`,
    "",
  ].join("\n");
}

/** The host's work at `at`, read back through the exporter's parsers (relay and textfile). */
export function simWorkPart(fleet: SimFleet, host: SimHostSpec, atMs: number): WorkPart {
  const errors = new ErrorCounts();
  const w = simWorkload(host);
  let series: WorkPart["series"] = [];
  if (w?.kind === "vllm") series = mapServerMetrics(renderSimVllm(fleet, host, atMs), w.job).series;
  else if (w?.kind === "textfile") {
    series = parseTextfile(renderSimTextfile(fleet, host, atMs), w.job, errors).series;
  }
  return { collector: "simulated", series, errors: errors.counts };
}
