// Who holds a GPU process, and how that becomes gpu_process_memory_used_bytes labels.

import { HOLDER_LABELS, type HolderLabel } from "../contract.ts";
import type { ContainerRuntime } from "./cgroup.ts";

export interface Holder {
  /** user name; the numeric uid until (or unless) the user database names it; "unknown" */
  user: string;
  containerRuntime?: ContainerRuntime;
  containerId?: string;
  podUid?: string;
  slurmJobId?: string;
  slurmStep?: string;
  systemdUnit?: string;
  // enrichment, each absent unless its source answered
  containerName?: string;
  podNamespace?: string;
  podName?: string;
  podContainer?: string;
  slurmUser?: string;
  slurmAccount?: string;
}

const FIELD: Record<HolderLabel, keyof Holder> = {
  user: "user",
  container_id: "containerId",
  pod_uid: "podUid",
  slurm_job_id: "slurmJobId",
  container_name: "containerName",
  pod_namespace: "podNamespace",
  pod_name: "podName",
  pod_container: "podContainer",
  slurm_user: "slurmUser",
  slurm_account: "slurmAccount",
};

/** The holder's labels: only those it has (an absent label is left out, not ""). */
export function holderLabels(h: Holder | undefined): Partial<Record<HolderLabel, string>> {
  const out: Partial<Record<HolderLabel, string>> = {};
  if (!h) return out;
  for (const label of HOLDER_LABELS) {
    const v = h[FIELD[label]];
    if (typeof v === "string" && v !== "") out[label] = v;
  }
  return out;
}
