// MIG slices: how the app keys them, and what share of their GPU they stand for. Used by ingest
// (exposition → store), the metrics readers (hour samples) and the demo's timeline alike.

/** A MIG slice's key wherever the app stores or joins slices: "<parent uuid>:gi<id>". */
export function migKey(parentUuid: string, gpuInstanceId: number): string {
  return `${parentUuid}:gi${gpuInstanceId}`;
}

/**
 * nvidia-smi does not attribute compute processes to MIG slices, so a slice holding more than a
 * context's worth of memory counts as having one process (used by the ledger's idle rule).
 */
export function migProcesses(memUsedBytes: number | null): number {
  return memUsedBytes !== null && memUsedBytes > 64 * 1024 * 1024 ? 1 : 0;
}

/** A MIG profile's share of its GPU: "3g.40gb" is 3 of the 7 compute slices of an A100/H100. */
export function migFraction(profile: string | null): number | undefined {
  const m = /^(\d+)g\./.exec(profile ?? "");
  return m ? Number(m[1]) / 7 : undefined;
}
