import "server-only";
import type { Db } from "../../db.ts";
import { awsEc2Executor } from "./aws-ec2.ts";
import { simulatedExecutor } from "./simulated.ts";
import type { Executor } from "./types.ts";
import { webhookExecutor } from "./webhook.ts";

/** The executor a policy names. The AWS SDK is imported only when an AWS action runs. */
export function executorFor(
  db: Db,
  policy: { executor: string; webhookUrl: string | null },
): Executor {
  switch (policy.executor) {
    case "webhook":
      return webhookExecutor({ url: policy.webhookUrl ?? "" });
    case "aws":
      return awsEc2Executor();
    default:
      return simulatedExecutor(db);
  }
}
