import "server-only";
import { awsInstance, ec2Client, ec2Failure, type AwsEc2Options } from "./aws-ec2.ts";
import { ExecutorError, type ExecutorResult, type ResizeTarget } from "./types.ts";

// Right-sizing an EC2 instance as AWS documents it ("Change the instance type", EBS-backed
// instances): StopInstances, wait until DescribeInstances says `stopped` (polled, bounded),
// ModifyInstanceAttribute InstanceType, StartInstances. Each step looks at the instance first, so a
// retry after a failure part-way (the lifecycle retries) carries on where it stopped: a stopped
// instance is not stopped again, one already of the new type is not modified again. The principal
// needs ec2:DescribeInstances, ec2:StopInstances, ec2:ModifyInstanceAttribute, ec2:StartInstances.

export interface AwsResizeOptions extends AwsEc2Options {
  /** DescribeInstances polling while the instance stops; default 5 s */
  pollIntervalMs?: number;
  /** how long to wait for `stopped`; default 10 minutes */
  waitMs?: number;
}

export async function awsEc2Resize(
  t: ResizeTarget,
  opts: AwsResizeOptions = {},
): Promise<ExecutorResult> {
  const id = awsInstance(t);
  const { sdk, client } = await ec2Client(opts, t.region);
  const steps: string[] = [];
  const describe = async () => {
    const r = await client.send(new sdk.DescribeInstancesCommand({ InstanceIds: [id] }));
    const inst = r.Reservations?.flatMap((x) => x.Instances ?? []).find((i) => i.InstanceId === id);
    if (!inst) throw new ExecutorError(`DescribeInstances has no ${id}`, false, "not_found");
    return { state: inst.State?.Name ?? "unknown", type: inst.InstanceType ?? "" };
  };
  try {
    let now = await describe();
    if (now.state === "terminated" || now.state === "shutting-down")
      throw new ExecutorError(`${id} is ${now.state}: it cannot be resized`, false, now.state);
    if (now.type === t.toInstanceType && now.state !== "stopped" && now.state !== "stopping")
      return { detail: `${id} is already ${t.toInstanceType} (${now.state})` };
    if (now.state !== "stopped") {
      if (now.state !== "stopping") {
        await client.send(new sdk.StopInstancesCommand({ InstanceIds: [id] }));
        steps.push("StopInstances");
      }
      const deadline = Date.now() + (opts.waitMs ?? 600_000);
      while (now.state !== "stopped") {
        if (Date.now() > deadline)
          throw new ExecutorError(`${id} is still ${now.state}, not stopped`, true, "not_stopped");
        await new Promise((r) => setTimeout(r, opts.pollIntervalMs ?? 5_000));
        now = await describe();
      }
      steps.push("stopped");
    }
    if (now.type !== t.toInstanceType) {
      await client.send(
        new sdk.ModifyInstanceAttributeCommand({
          InstanceId: id,
          InstanceType: { Value: t.toInstanceType },
        }),
      );
      steps.push(`ModifyInstanceAttribute InstanceType=${t.toInstanceType}`);
    }
    const started = await client.send(new sdk.StartInstancesCommand({ InstanceIds: [id] }));
    const state = started.StartingInstances?.[0]?.CurrentState?.Name ?? "?";
    steps.push(`StartInstances: ${state}`);
    return {
      detail: `${id} ${now.type || t.fromInstanceType} → ${t.toInstanceType}: ${steps.join(", ")}`,
    };
  } catch (e) {
    throw ec2Failure(e);
  } finally {
    client.destroy();
  }
}
