import { formatMoney } from "../format/money.ts";

// What the instance page shows beside its detail (issue 16): the cloud's facts about the host,
// a spot reclaim notice, each GPU's virtualization mode, vGPU licence and SM active, and the
// busy-but-inefficient findings. Plain data, serializable from the server page to the view.

export interface GpuFactsView {
  uuid: string;
  index: number;
  virtualizationMode: string | null;
  vgpuLicensed: boolean | null;
  util: number | null;
  smActive: number | null;
}

export interface InefficientView {
  gpuUuid: string;
  gpuIndex: number | null;
  hours: number;
  utilAvg: number;
  smActiveAvg: number | null;
  costMicros: string;
  from: string;
  to: string;
}

export interface HostFactsView {
  zone: string | null;
  instanceId: string | null;
  state: string;
  interruptionPending: boolean;
  /** ISO time of the announced reclaim, when the provider gave one */
  interruptionAt: string | null;
  gpus: GpuFactsView[];
  inefficient: InefficientView[];
}

/** "spot reclaim announced for 14:32 UTC" (or "… announced" without a time); null when none. */
export function reclaimNote(
  f: Pick<HostFactsView, "interruptionPending" | "interruptionAt" | "state">,
): string | null {
  if (!f.interruptionPending) return null;
  const time = f.interruptionAt ? ` for ${f.interruptionAt.slice(11, 16)} UTC` : "";
  const gone = f.state === "interrupted" ? " (reclaimed: not counted as an outage)" : "";
  return `spot reclaim announced${time}${gone}`;
}

/** vGPU guests are the GPUs whose virtualization mode is "VGPU". */
export function isVgpuGuest(mode: string | null): boolean {
  return (mode ?? "").toUpperCase() === "VGPU";
}

/** The fleet table's "vGPU" badge title; null when the host has no vGPU guest. */
export function vgpuBadgeTitle(r: { vgpuGuests: number; gpus: number }): string | null {
  if (r.vgpuGuests <= 0) return null;
  const total = Math.max(r.gpus, r.vgpuGuests);
  return `vGPU guest: ${r.vgpuGuests} of ${total} GPU${total === 1 ? "" : "s"} virtual, each backed by a share of a physical GPU`;
}

export function inefficientText(f: InefficientView, currency = "USD"): string {
  const pct = (v: number) => `${Math.round(v * 100)} %`;
  const sm = f.smActiveAvg === null ? "" : `, SM active ${pct(f.smActiveAvg)}`;
  const cost =
    BigInt(f.costMicros) > 0n ? `; cost ${formatMoney(BigInt(f.costMicros), currency)}` : "";
  const gpu = f.gpuIndex === null ? f.gpuUuid : `GPU ${f.gpuIndex}`;
  return `${gpu} busy but inefficient for ${f.hours} h: utilization ${pct(f.utilAvg)}${sm}${cost}`;
}
