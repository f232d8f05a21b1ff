import { METRIC as M } from "../../../exporter/contract.ts";
import type { InstantVector, PromClient } from "./api.ts";

/** What Prometheus knows of the fleet now: ingest's discovery turns it into hosts and GPUs. */
export interface PromInventory {
  hostInfos: InstantVector;
  ups: InstantVector;
  gpuInfos: InstantVector;
  memTotals: InstantVector;
  /** spot hosts only: gpu_host_interruption_pending / _time_seconds, by `instance` */
  interruptionPending: InstantVector;
  interruptionTime: InstantVector;
  vgpuLicensed: InstantVector;
}

export async function queryInventory(client: PromClient): Promise<PromInventory> {
  const [hostInfos, ups, gpuInfos, memTotals, interruptionPending, interruptionTime, vgpuLicensed] =
    await Promise.all([
      client.query(M.hostInfo),
      client.query(M.up),
      client.query(M.gpuInfo),
      client.query(M.memTotal),
      client.query(M.interruptionPending),
      client.query(M.interruptionTime),
      client.query(M.vgpuLicensed),
    ]);
  return {
    hostInfos,
    ups,
    gpuInfos,
    memTotals,
    interruptionPending,
    interruptionTime,
    vgpuLicensed,
  };
}
