// What the alert rules need from GPU metrics, aggregated over a window. Two implementations:
// the embedded store's 1-minute GpuMinute rows, and a Prometheus-compatible API's
// *_over_time queries, so every rule works the same in both modes.

export interface GpuWindowStats {
  hostId: string;
  gpuUuid: string;
  /** share of the window with a utilization reading, 0-1 */
  utilCoverage: number;
  utilMax: number | null;
  utilAvg: number | null;
  memMaxBytes: number | null;
  memTotalBytes: number | null;
  processesMax: number | null;
  tempAvg: number | null;
  tempCoverage: number;
  /** share of the window with a thermal / power clock event active; null without readings */
  thermalRatio: number | null;
  powerRatio: number | null;
  throttleCoverage: number;
  /** uncorrected ECC errors added during the window; null when the GPU reports no ECC */
  eccUncorrectedIncrease: number | null;
  /** the newest data point in the window */
  lastAt: Date | null;
}

export interface AlertMetrics {
  readonly mode: "embedded" | "prometheus";
  /** Physical GPUs (not MIG slices) with data in [from, to). */
  gpuWindow(from: Date, to: Date): Promise<GpuWindowStats[]>;
}
