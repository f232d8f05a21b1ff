// The metric contract: every metric and label name the exporter serves and the app reads, written
// once. The exporter (exporter/metrics*.ts) registers its series under these names; the app's PromQL
// (lib/metrics/prometheus/) and exposition reader (lib/ingest/snapshot.ts) query them. A rename
// here is a rename everywhere; docs/architecture.md lists the contract for people.

export const METRIC = {
  /** GPU identity; always 1. Labels: gpu, uuid, name, pci_bus_id, driver_version, mig_mode */
  gpuInfo: "gpu_info",
  /** the host the exporter runs on; always 1. Labels: HOST_INFO_LABELS and attribution labels */
  hostInfo: "gpu_host_info",
  util: "gpu_utilization_ratio",
  memUtil: "gpu_memory_utilization_ratio",
  memTotal: "gpu_memory_total_bytes",
  memUsed: "gpu_memory_used_bytes",
  memFree: "gpu_memory_free_bytes",
  temp: "gpu_temperature_celsius",
  power: "gpu_power_draw_watts",
  powerLimit: "gpu_power_limit_watts",
  smClock: "gpu_sm_clock_hertz",
  memClock: "gpu_memory_clock_hertz",
  fanSpeed: "gpu_fan_speed_ratio",
  pstate: "gpu_performance_state",
  ecc: "gpu_ecc_errors_total",
  clockEvent: "gpu_clock_event_active",
  processes: "gpu_processes",
  /** Labels: gpu, uuid, pid, process_name, gpu_instance_id (MIG) and HOLDER_LABELS */
  processMemory: "gpu_process_memory_used_bytes",
  migMemUsed: "gpu_mig_memory_used_bytes",
  migMemTotal: "gpu_mig_memory_total_bytes",
  /** spot hosts: 1 once the provider announced a reclaim, and the announced unix time */
  interruptionPending: "gpu_host_interruption_pending",
  interruptionTime: "gpu_host_interruption_time_seconds",
  /** vGPU guests: 1 while licensed, and when the held licence expires */
  vgpuLicensed: "gpu_vgpu_licensed",
  vgpuLicenseExpiry: "gpu_vgpu_license_expiry_timestamp_seconds",
  /** DCGM profiling, where the hardware gives it (ratios 0-1, rates in bytes per second) */
  smActive: "gpu_sm_active_ratio",
  smOccupancy: "gpu_sm_occupancy_ratio",
  tensorActive: "gpu_tensor_active_ratio",
  dramActive: "gpu_dram_active_ratio",
  graphicsEngineActive: "gpu_graphics_engine_active_ratio",
  pcieTx: "gpu_pcie_tx_bytes_per_second",
  pcieRx: "gpu_pcie_rx_bytes_per_second",
  nvlinkTx: "gpu_nvlink_tx_bytes_per_second",
  nvlinkRx: "gpu_nvlink_rx_bytes_per_second",
  buildInfo: "gpu_exporter_build_info",
  collectorSuccess: "gpu_exporter_collector_success",
  collectorDuration: "gpu_exporter_collector_duration_seconds",
  /** Prometheus's own per-target health series */
  up: "up",
} as const;

/** gpu_host_info's pricing labels, in this order; the rest of its labels are attribution. */
/** The values of gpu_host_info's `pricing_model` label, and so of a price row's pricing model. */
export const PRICING_MODELS = ["on_demand", "spot", "reserved"] as const;
export type PricingModel = (typeof PRICING_MODELS)[number];

export const HOST_INFO_LABELS = [
  "hostname",
  "provider",
  "instance_type",
  "region",
  "pricing_model",
] as const;

/** gpu_host_info labels that are facts about the host (stored in their own columns), not labels. */
export const HOST_FACT_LABELS = ["zone", "instance_id"] as const;

/**
 * gpu_process_memory_used_bytes labels naming who holds the process (exporter/holders/), besides
 * gpu, uuid, pid, process_name. Each is left out when unknown, never "". `user` is the user name,
 * the numeric uid until the user database answers (or when it has no such uid), or "unknown" when
 * the process's /proc could not be read (another PID namespace, permissions). The last six come
 * from the optional sources (Docker socket, kubelet, scontrol).
 */
export const HOLDER_LABELS = [
  "user",
  "container_id",
  "pod_uid",
  "slurm_job_id",
  "container_name",
  "pod_namespace",
  "pod_name",
  "pod_container",
  "slurm_user",
  "slurm_account",
] as const;
export type HolderLabel = (typeof HOLDER_LABELS)[number];

/** Attribution labels on gpu_host_info the app reads (team budgets, cost breakdowns). */
export const ATTRIBUTION_LABELS = ["team", "project", "owner"] as const;

/** gpu_clock_event_active reasons that mean thermal throttling. */
export const THERMAL_REASONS = ["sw_thermal_slowdown", "hw_thermal_slowdown", "hw_slowdown"];
/** gpu_clock_event_active reasons that mean power throttling. */
export const POWER_REASONS = ["sw_power_cap", "hw_power_brake_slowdown"];

// ── Work counters (issue 28): units of the users' own work, for measured cost per unit ──

/** The exporter's normalised work counter: textfile jobs write it; relayed servers are mapped to it. */
export const WORK_METRIC = "gpufleet_work_units_total";
/** Labels of WORK_METRIC: the unit, the model (may be empty), the job or server, where it came from. */
export const WORK_LABELS = ["unit", "model_name", "job", "source"] as const;
export const WORK_UNITS = [
  "prompt_tokens",
  "output_tokens",
  "requests",
  "inferences",
  "samples",
  "images",
] as const;
export type WorkUnit = (typeof WORK_UNITS)[number];
export const WORK_SOURCES = ["vllm", "sglang", "tgi", "triton", "textfile"] as const;
export type WorkSource = (typeof WORK_SOURCES)[number];

/**
 * Inference servers' own counters, as Prometheus scrapes them and as the exporter's relay reads
 * them: the series name, its server, the unit it counts and the label naming the model (null: the
 * server has none). Histogram `_sum` series count the tokens of all requests. Names as each server
 * documents them (vLLM and SGLang "production metrics" pages, TGI's and Triton's metrics docs).
 * A counter's series that differ only in other labels are summed per model: vLLM splits
 * request_success_total by `finished_reason` (and V1 adds `engine` to all), Triton splits by
 * `version`, SGLang may add `tp_rank` (checked on real captures: exporter/test/fixtures/work/).
 */
export const WORK_COUNTERS: readonly {
  name: string;
  source: Exclude<WorkSource, "textfile">;
  unit: WorkUnit;
  modelLabel: string | null;
}[] = [
  {
    name: "vllm:prompt_tokens_total",
    source: "vllm",
    unit: "prompt_tokens",
    modelLabel: "model_name",
  },
  {
    name: "vllm:generation_tokens_total",
    source: "vllm",
    unit: "output_tokens",
    modelLabel: "model_name",
  },
  {
    name: "vllm:request_success_total",
    source: "vllm",
    unit: "requests",
    modelLabel: "model_name",
  },
  {
    name: "sglang:prompt_tokens_total",
    source: "sglang",
    unit: "prompt_tokens",
    modelLabel: "model_name",
  },
  {
    name: "sglang:generation_tokens_total",
    source: "sglang",
    unit: "output_tokens",
    modelLabel: "model_name",
  },
  {
    name: "sglang:num_requests_total",
    source: "sglang",
    unit: "requests",
    modelLabel: "model_name",
  },
  { name: "tgi_request_input_length_sum", source: "tgi", unit: "prompt_tokens", modelLabel: null },
  {
    name: "tgi_request_generated_tokens_sum",
    source: "tgi",
    unit: "output_tokens",
    modelLabel: null,
  },
  { name: "tgi_request_success", source: "tgi", unit: "requests", modelLabel: null },
  { name: "nv_inference_count", source: "triton", unit: "inferences", modelLabel: "model" },
  { name: "nv_inference_request_success", source: "triton", unit: "requests", modelLabel: "model" },
];

/**
 * The exporter's own health series for its work collectors (exporter/metrics-work.ts): inputs
 * skipped by reason (labels collector, reason), each relayed server's answer (label target), and,
 * with --collector.textfile.directory, node_exporter's pair (scrape error; mtime by label file).
 */
export const WORK_EXPORTER_METRICS = {
  errors: "gpufleet_exporter_work_errors_total",
  targetUp: "gpufleet_exporter_work_target_up",
  textfileError: "gpufleet_exporter_textfile_scrape_error",
  textfileMtime: "gpufleet_exporter_textfile_mtime_seconds",
} as const;
