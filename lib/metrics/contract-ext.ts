// Metric names the exporter serves (exporter/metrics-host.ts, metrics-vgpu.ts,
// metrics-efficiency.ts) that exporter/contract.ts does not list yet; they belong there, and these
// constants go once it does. docs/architecture.md lists them in the metric contract.
export const METRIC_EXT = {
  interruptionPending: "gpu_host_interruption_pending",
  interruptionTime: "gpu_host_interruption_time_seconds",
  vgpuLicensed: "gpu_vgpu_licensed",
  smActive: "gpu_sm_active_ratio",
  tensorActive: "gpu_tensor_active_ratio",
} as const;

/** gpu_host_info labels that are facts about the host (stored in their own columns), not labels. */
export const HOST_FACT_LABELS = ["zone", "instance_id"] as const;

/** Where SM active exists, a minute under this counts as idle whatever utilization says. */
export const SM_ACTIVE_IDLE = 0.01;
