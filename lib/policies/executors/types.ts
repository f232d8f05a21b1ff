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

export interface Executor {
  readonly name: string;
  run(target: ActionTarget): Promise<ExecutorResult>;
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
