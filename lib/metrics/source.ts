// The one interface every read of GPU metrics goes through, so the app works the same on the
// embedded collector's store and on any Prometheus-compatible HTTP API.

export interface TimeRange {
  from: Date;
  to: Date;
  /** the most points one series may carry; sources downsample to fit */
  maxPoints: number;
}

/** One point of a series; `t` is epoch milliseconds, `v` null where there is no data. */
export interface SeriesPoint {
  t: number;
  v: number | null;
}

export interface CurrentGpu {
  hostId: string;
  hostname: string;
  uuid: string;
  index: number;
  name: string;
  /** SM busy 0-1; null where the driver reports N/A (MIG) or the GPU is not reporting */
  util: number | null;
  memUsedBytes: number | null;
  memTotalBytes: number | null;
  powerWatts: number | null;
  tempCelsius: number | null;
  processes: number | null;
  /** last time this GPU was seen by the source */
  lastSeen: Date | null;
  /** false when the GPU (or its host's exporter) has not reported within two intervals */
  reporting: boolean;
  /** MIG slices: the parent GPU's uuid and profile; null for whole GPUs */
  parentUuid: string | null;
  migProfile: string | null;
}

export interface GpuSeries {
  uuid: string;
  index: number;
  name: string;
  util: SeriesPoint[];
  memUsedBytes: SeriesPoint[];
  powerWatts: SeriesPoint[];
  tempCelsius: SeriesPoint[];
  smClockHz: SeriesPoint[];
}

export interface FleetSeries {
  /** mean SM utilization over reporting GPUs */
  util: SeriesPoint[];
  memUsedBytes: SeriesPoint[];
  gpusReporting: SeriesPoint[];
}

export interface ProcessInfo {
  gpuUuid: string;
  pid: number;
  processName: string;
  usedMemoryBytes: number;
}

export interface SourceHealth {
  ok: boolean;
  /** when the source last answered successfully */
  lastSuccess: Date | null;
  error: string | null;
}

export interface MetricsSource {
  readonly mode: "embedded" | "prometheus";
  currentGpus(): Promise<CurrentGpu[]>;
  fleetSeries(range: TimeRange): Promise<FleetSeries>;
  gpuSeries(hostId: string, range: TimeRange): Promise<GpuSeries[]>;
  processes(hostId: string): Promise<ProcessInfo[]>;
  health(): Promise<SourceHealth>;
}
