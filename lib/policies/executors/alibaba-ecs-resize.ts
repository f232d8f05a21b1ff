import "server-only";
import { alibabaInstance, ecsClient, ecsFailure, type AlibabaEcsOptions } from "./alibaba-ecs.ts";
import { ExecutorError, type ExecutorResult, type ResizeTarget } from "./types.ts";

// Right-sizing a pay-as-you-go ECS instance as Alibaba Cloud documents it (ModifyInstanceSpec: the
// instance must be Stopped): StopInstance with StoppedMode KeepCharging (an instance stopped with
// StopCharging may not get its resources back when started), DescribeInstances until Stopped
// (polled, bounded), ModifyInstanceSpec InstanceType, StartInstance. The instance is read first, so
// a retry after a failure part-way carries on. The RAM principal needs ecs:DescribeInstances,
// ecs:StopInstance, ecs:ModifyInstanceSpec, ecs:StartInstance. (A subscription instance changes
// type with ModifyPrepayInstanceSpec instead, which this does not call: ECS refuses with an error.)

export interface AlibabaResizeOptions extends AlibabaEcsOptions {
  /** DescribeInstances polling while the instance stops; default 5 s */
  pollIntervalMs?: number;
  /** how long to wait for Stopped; default 10 minutes */
  waitMs?: number;
}

export async function alibabaEcsResize(
  t: ResizeTarget,
  opts: AlibabaResizeOptions = {},
): Promise<ExecutorResult> {
  const instanceId = alibabaInstance(t);
  const { ecs, client } = await ecsClient(opts, t.region);
  const to = t.toInstanceType;
  const steps: string[] = [];
  const describe = async () => {
    const r = await client.describeInstances(
      new ecs.DescribeInstancesRequest({
        regionId: t.region,
        instanceIds: JSON.stringify([instanceId]),
      }),
    );
    const inst = r.body?.instances?.instance?.find((i) => i.instanceId === instanceId);
    if (!inst)
      throw new ExecutorError(`DescribeInstances has no ${instanceId}`, false, "not_found");
    return { status: inst.status ?? "", type: inst.instanceType ?? "" };
  };
  try {
    let now = await describe();
    if (now.type === to && now.status !== "Stopped" && now.status !== "Stopping")
      return { detail: `${instanceId} is already ${to} (${now.status})` };
    if (now.status !== "Stopped") {
      if (now.status !== "Stopping") {
        await client.stopInstance(
          new ecs.StopInstanceRequest({ instanceId, stoppedMode: "KeepCharging" }),
        );
        steps.push("StopInstance (KeepCharging)");
      }
      const deadline = Date.now() + (opts.waitMs ?? 600_000);
      while (now.status !== "Stopped") {
        if (Date.now() > deadline)
          throw new ExecutorError(`${instanceId} is still ${now.status}`, true, "not_stopped");
        await new Promise((r) => setTimeout(r, opts.pollIntervalMs ?? 5_000));
        now = await describe();
      }
      steps.push("Stopped");
    }
    if (now.type !== to) {
      await client.modifyInstanceSpec(
        new ecs.ModifyInstanceSpecRequest({ instanceId, instanceType: to }),
      );
      steps.push(`ModifyInstanceSpec InstanceType=${to}`);
    }
    const r = await client.startInstance(new ecs.StartInstanceRequest({ instanceId }));
    steps.push(`StartInstance: ${r.body?.requestId ?? "?"}`);
    return {
      detail: `${instanceId} ${now.type || t.fromInstanceType} → ${to}: ${steps.join(", ")}`,
    };
  } catch (e) {
    throw ecsFailure(e);
  }
}
