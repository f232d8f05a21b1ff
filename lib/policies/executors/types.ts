// The one interface every executor implements (docs/architecture.md "Where does a new feature
// go"). An executor performs one action on one host; a failure it may recover from throws a
// retryable ExecutorError, which the lifecycle retries with backoff, then alerts.

export type PolicyAction = "stop" | "terminate";

export interface ActionTarget {
  policyId: string;
  episodeId: string;
  hostId: string;
  hostname: string;
  provider: string;
  region: string;
  zone: string | null;
  /** the cloud's own instance id (gpu_host_info, from cloud metadata) */
  instanceId: string | null;
  action: PolicyAction;
}

export interface ExecutorResult {
  /** what the provider answered, for the audit log (no secrets) */
  detail: string;
}

/** A scale policy's change to one pool's desired size (./../scale.ts). */
export interface ScaleTarget {
  policyId: string;
  /** the signal's id: one call per signal (the webhook's idempotency key) */
  signalId: string;
  pool: string;
  /** the provider's group: an autoscaling group, managed instance group or scale set name */
  group: string | null;
  provider: string;
  region: string;
  zone: string | null;
  direction: "out" | "in";
  fromSize: number;
  desired: number;
}

/** A right-size accepted from a recommendation: one host to another instance type. */
export interface ResizeTarget extends Omit<ActionTarget, "action"> {
  action: "resize";
  fromInstanceType: string;
  toInstanceType: string;
}

/**
 * A maximum-run-time policy's end of one Slurm job's or Kubernetes pod's run (target job | pod).
 * A cloud's instance API cannot do this: only the webhook and the simulated cloud have `endRun`.
 */
export interface RunTarget {
  policyId: string;
  episodeId: string;
  action: "cancel_job" | "delete_pod";
  hostId: string;
  hostname: string;
  provider: string;
  region: string;
  zone: string | null;
  instanceId: string | null;
  /** when the run began (its first minute seen holding a GPU) */
  runningSince: string;
  /** GPUs it held when last seen */
  gpus: number;
  /** cancel_job: the Slurm job; cluster from the host's `slurm_cluster` label where it has one */
  job: { id: string; user: string | null; account: string | null; cluster: string | null } | null;
  /** delete_pod: the pod; uid null where only namespace/name is known, and the reverse */
  pod: {
    namespace: string | null;
    name: string | null;
    uid: string | null;
    user: string | null;
  } | null;
}

export interface Executor {
  readonly name: string;
  run(target: ActionTarget): Promise<ExecutorResult>;
  /** end a job's or pod's run; absent where the executor cannot (a cloud's instance API) */
  endRun?(target: RunTarget): Promise<ExecutorResult>;
  /** scale a pool to a desired size; absent where the executor cannot scale */
  scale?(target: ScaleTarget): Promise<ExecutorResult>;
  /**
   * change a host's instance type (stopping it first where the cloud needs that, and starting it
   * again); absent where the executor cannot resize
   */
  resize?(target: ResizeTarget): Promise<ExecutorResult>;
}

export class ExecutorError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly code?: string,
  ) {
    super(message);
    this.name = "ExecutorError";
  }
}
