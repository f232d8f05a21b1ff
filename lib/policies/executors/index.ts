import "server-only";
import { alibabaEcsExecutor } from "./alibaba-ecs.ts";
import { alibabaEcsResize } from "./alibaba-ecs-resize.ts";
import type { Db } from "../../db.ts";
import { awsAsgScale } from "./aws-asg.ts";
import { awsEc2Executor } from "./aws-ec2.ts";
import { awsEc2Resize } from "./aws-ec2-resize.ts";
import { azureComputeExecutor } from "./azure-compute.ts";
import { azureComputeResize } from "./azure-compute-resize.ts";
import { azureVmssCapacity } from "./azure-vmss.ts";
import { gcpComputeExecutor } from "./gcp-compute.ts";
import { gcpComputeResize } from "./gcp-compute-resize.ts";
import { gcpMigResize } from "./gcp-mig.ts";
import { simulatedExecutor } from "./simulated.ts";
import { tencentCvmExecutor } from "./tencent-cvm.ts";
import type { Executor } from "./types.ts";
import { webhookExecutor } from "./webhook.ts";

/** The executor a policy names. A cloud SDK is imported only when
 * an action of that cloud runs (server-only: never in a client bundle). Those that can scale a
 * pool (scale policies) have `scale`: simulated, webhook, aws (Auto Scaling), gcp (managed instance groups), azure (scale sets). */
export function executorFor(
  db: Db,
  policy: { executor: string; webhookUrl: string | null },
): Executor {
  switch (policy.executor) {
    case "webhook":
      return webhookExecutor({ url: policy.webhookUrl ?? "" });
    case "aws":
      return {
        ...awsEc2Executor(),
        scale: (t) => awsAsgScale(t),
        resize: (t) => awsEc2Resize(t),
      };
    case "gcp":
      return {
        ...gcpComputeExecutor(),
        scale: (t) => gcpMigResize(t),
        resize: (t) => gcpComputeResize(t),
      };
    case "azure":
      return {
        ...azureComputeExecutor(),
        scale: (t) => azureVmssCapacity(t),
        resize: (t) => azureComputeResize(t),
      };
    case "alibaba":
      return { ...alibabaEcsExecutor(), resize: (t) => alibabaEcsResize(t) };
    case "tencent":
      return tencentCvmExecutor();
    default:
      return simulatedExecutor(db);
  }
}

/** The executors with `resize` (right-size; executors.integration.test.ts checks this list). */
const RESIZERS: ReadonlySet<string> = new Set([
  "simulated",
  "webhook",
  "aws",
  "gcp",
  "azure",
  "alibaba",
]);

/** Whether the executor a policy names can change a host's instance type (right-size). */
export function executorCanResize(executor: string): boolean {
  return RESIZERS.has(executor);
}
