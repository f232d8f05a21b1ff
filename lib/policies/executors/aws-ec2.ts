import "server-only";
import { ExecutorError, type ActionTarget, type Executor } from "./types.ts";

// AWS EC2 StopInstances / TerminateInstances through @aws-sdk/client-ec2, loaded on first use
// (never in a client bundle). Credentials come only from the SDK's default chain (environment,
// shared files, instance role); none is stored or shown. The SDK's own retries are limited to
// `maxAttempts` (1 by default): the policy lifecycle retries with its own backoff and records
// every attempt. `endpoint` exists for tests against a local server.

export interface AwsEc2Options {
  /** the SDK's attempts per call (its own retry of throttling and 5xx); default 1 */
  maxAttempts?: number;
  /** tests: a 127.0.0.1 endpoint and explicit credentials */
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** EC2 error codes that retrying cannot fix (the request is wrong for this instance). */
const PERMANENT = new Set([
  "InvalidInstanceID.NotFound",
  "InvalidInstanceID.Malformed",
  "UnauthorizedOperation",
  "OperationNotPermitted",
  "UnsupportedOperation",
  "AuthFailure",
]);

/** The instance id of an AWS host with an AWS region; a host lacking either is final. */
export function awsInstance(
  t: Pick<ActionTarget, "instanceId" | "provider" | "region" | "hostname">,
) {
  if (!t.instanceId) throw new ExecutorError(`${t.hostname} has no instance id`, false);
  if (t.provider !== "aws") {
    throw new ExecutorError(`${t.hostname} is on ${t.provider}, not AWS`, false);
  }
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(t.region)) {
    throw new ExecutorError(`${t.hostname} has no AWS region (${t.region})`, false);
  }
  return t.instanceId;
}

/** The SDK (imported on first use) and a client for the region, its own retries limited. */
export async function ec2Client(opts: AwsEc2Options, region: string) {
  const sdk = await import("@aws-sdk/client-ec2");
  const client = new sdk.EC2Client({
    region,
    maxAttempts: opts.maxAttempts ?? 1,
    ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
    ...(opts.credentials ? { credentials: opts.credentials } : {}),
  });
  return { sdk, client };
}

/** An SDK error as an ExecutorError: retryable unless its code says the request is wrong. */
export function ec2Failure(e: unknown): ExecutorError {
  if (e instanceof ExecutorError) return e;
  const err = e as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const code = err.name ?? "Error";
  const status = err.$metadata?.httpStatusCode;
  return new ExecutorError(
    `EC2 ${code}${status ? ` (HTTP ${status})` : ""}: ${err.message ?? String(e)}`,
    !PERMANENT.has(code),
    code,
  );
}

export function awsEc2Executor(opts: AwsEc2Options = {}): Executor {
  return {
    name: "aws",
    async run(t: ActionTarget) {
      awsInstance(t);
      const { sdk, client } = await ec2Client(opts, t.region);
      try {
        const input = { InstanceIds: [awsInstance(t)] };
        if (t.action === "terminate") {
          const r = await client.send(new sdk.TerminateInstancesCommand(input));
          const s = r.TerminatingInstances?.[0];
          return { detail: `TerminateInstances ${t.instanceId}: ${s?.CurrentState?.Name ?? "?"}` };
        }
        const r = await client.send(new sdk.StopInstancesCommand(input));
        const s = r.StoppingInstances?.[0];
        return { detail: `StopInstances ${t.instanceId}: ${s?.CurrentState?.Name ?? "?"}` };
      } catch (e) {
        throw ec2Failure(e);
      } finally {
        client.destroy();
      }
    },
  };
}
