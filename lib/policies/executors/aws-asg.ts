import "server-only";
import { ExecutorError, type ScaleTarget } from "./types.ts";

// AWS Auto Scaling SetDesiredCapacity through @aws-sdk/client-auto-scaling, loaded on first use
// (never in a client bundle), for a scale policy's pool whose hosts carry the group's name
// (`gpufleet.io/asg=<name>`). Credentials only from the SDK's default chain; the IAM principal
// needs autoscaling:SetDesiredCapacity. HonorCooldown is false: the policy keeps its own cool-down
// and records each call. SDK retries are limited to `maxAttempts` (1 by default), as for EC2.

export interface AwsAsgOptions {
  maxAttempts?: number;
  /** tests: a 127.0.0.1 endpoint and explicit credentials */
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** Auto Scaling error codes that retrying cannot fix. */
const PERMANENT = new Set([
  "ValidationError",
  "AccessDenied",
  "AccessDeniedException",
  "UnauthorizedOperation",
  "InvalidClientTokenId",
]);

export async function awsAsgScale(t: ScaleTarget, opts: AwsAsgOptions = {}) {
  if (!t.group) {
    throw new ExecutorError(`pool ${t.pool} has no autoscaling group (gpufleet.io/asg)`, false);
  }
  if (t.provider !== "aws") throw new ExecutorError(`pool ${t.pool} is not on AWS`, false);
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(t.region)) {
    throw new ExecutorError(`pool ${t.pool} has no AWS region (${t.region})`, false);
  }
  const sdk = await import("@aws-sdk/client-auto-scaling");
  const client = new sdk.AutoScalingClient({
    region: t.region,
    maxAttempts: opts.maxAttempts ?? 1,
    ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
    ...(opts.credentials ? { credentials: opts.credentials } : {}),
  });
  try {
    await client.send(
      new sdk.SetDesiredCapacityCommand({
        AutoScalingGroupName: t.group,
        DesiredCapacity: t.desired,
        HonorCooldown: false,
      }),
    );
    return { detail: `SetDesiredCapacity ${t.group}: ${t.fromSize} → ${t.desired}` };
  } catch (e) {
    const err = e as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    const code = err.name ?? "Error";
    const status = err.$metadata?.httpStatusCode;
    throw new ExecutorError(
      `Auto Scaling ${code}${status ? ` (HTTP ${status})` : ""}: ${err.message ?? String(e)}`,
      !PERMANENT.has(code),
      code,
    );
  } finally {
    client.destroy();
  }
}
