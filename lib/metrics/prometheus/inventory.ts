import { METRIC as M } from "../../../exporter/contract.ts";
import type { InstantVector, PromClient } from "./api.ts";

/** What Prometheus knows of the fleet now: ingest's discovery turns it into hosts and GPUs. */
export interface PromInventory {
  hostInfos: InstantVector;
  ups: InstantVector;
  gpuInfos: InstantVector;
  memTotals: InstantVector;
}

export async function queryInventory(client: PromClient): Promise<PromInventory> {
  const [hostInfos, ups, gpuInfos, memTotals] = await Promise.all([
    client.query(M.hostInfo),
    client.query(M.up),
    client.query(M.gpuInfo),
    client.query(M.memTotal),
  ]);
  return { hostInfos, ups, gpuInfos, memTotals };
}
