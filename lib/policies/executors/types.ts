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

export interface Executor {
  readonly name: string;
  run(target: ActionTarget): Promise<ExecutorResult>;
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
