import "server-only";
import type { Holder } from "../core/holders.ts";
import { divRoundHalfUp } from "../core/money.ts";
import type { PlannedActionDto } from "../zod/schemas/policy.ts";
import type { EvalHost } from "./evaluate.ts";
import type { RunTarget } from "./executors/types.ts";
import { runLabel } from "./holder-runs.ts";
import { episodeHolder } from "./run-episodes.ts";

// What a job's or pod's episode says about its run: the holder, its GPUs, its share of the host's
// price (its GPUs × the host's price ÷ the host's physical GPUs) and the executor's target.

export interface RunFacts {
  holder: Holder;
  /** "job 4242 (alice)" */
  label: string;
  gpus: number;
  /** when the run began (the episode's clock) */
  since: Date;
  /** its share of the host's price per hour; null when the host is unpriced */
  hourlyMicros: bigint | null;
}

const PPM = 1_000_000;

/** The run's share of the host's hourly price: its GPUs × the per-GPU price. */
export function runShareMicros(host: EvalHost, gpus: number): bigint | null {
  if (host.hourlyMicros === null || host.gpus.length === 0) return null;
  const part = BigInt(Math.round(Math.min(gpus, host.gpus.length) * PPM));
  return divRoundHalfUp(host.hourlyMicros * part, BigInt(host.gpus.length * PPM));
}

/** The run an episode names, or null for a host's episode. */
export function runFacts(
  e: { holder: string | null; holderGpus: number | null; idleSince: Date },
  host: EvalHost,
): RunFacts | null {
  const holder = episodeHolder(e);
  if (!holder) return null;
  const gpus = e.holderGpus ?? 0;
  const hourlyMicros = runShareMicros(host, gpus);
  return { holder, label: runLabel(holder), gpus, since: e.idleSince, hourlyMicros };
}

/** The planned-action row's run (settings page, GET /api/policies/actions). */
export function runDto(r: RunFacts): NonNullable<PlannedActionDto["run"]> {
  const h = r.holder;
  return {
    kind: h.kind === "pod" ? "pod" : "job",
    ref: h.ref,
    name: h.name,
    namespace: h.namespace,
    user: h.user,
    account: h.account,
    gpus: Math.round(r.gpus * 1000) / 1000,
    label: r.label,
  };
}

/** A Slurm cluster where the host says (`slurm_cluster` or `gpufleet.io/slurm-cluster` label). */
function clusterOf(host: EvalHost): string | null {
  const l = host.labels;
  return l.slurm_cluster ?? l["gpufleet.io/slurm-cluster"] ?? l.gpufleet_io_slurm_cluster ?? null;
}

/** The executor's target for ending the run (the webhook's signed body, README "Policies"). */
export function runTarget(
  ids: { policyId: string; episodeId: string },
  host: EvalHost,
  run: RunFacts,
): RunTarget {
  const h = run.holder;
  const pod = h.kind === "pod";
  // a pod's ref is its uid, else "namespace/name" when only the kubelet's names were known
  const byName = h.name !== null && h.ref === `${h.namespace ?? ""}/${h.name}`;
  return {
    ...ids,
    action: pod ? "delete_pod" : "cancel_job",
    hostId: host.id,
    hostname: host.hostname,
    provider: host.provider,
    region: host.region,
    zone: host.zone,
    instanceId: host.instanceId,
    runningSince: run.since.toISOString(),
    gpus: Math.round(run.gpus * 1000) / 1000,
    job: pod ? null : { id: h.ref, user: h.user, account: h.account, cluster: clusterOf(host) },
    pod: pod
      ? { namespace: h.namespace, name: h.name, uid: byName ? null : h.ref, user: h.user }
      : null,
  };
}
