import {
  POLICY_ACTIONS,
  TARGET_ACTION,
  type PolicyTarget,
  type PolicyDto,
} from "@/lib/zod/schemas/policy.ts";

// The maximum-run-time policy's target on the settings form: a host's run, or each Slurm job's or
// Kubernetes pod's run on the hosts in scope (issue 25). The action follows the target: a host is
// stopped or terminated, a job cancelled, a pod deleted; the schema refuses a cloud executor for
// jobs and pods (its instance API cannot end them), and the form shows that message on the field.

export const TARGET_LABELS: Record<PolicyTarget, string> = {
  host: "the host (running since it came up)",
  job: "each Slurm job (running since it first held a GPU)",
  pod: "each Kubernetes pod (running since it first held a GPU)",
};

export const ACTION_LABELS: Record<PolicyDto["action"], string> = {
  stop: "stop (keeps disks)",
  terminate: "terminate (deletes the instance)",
  cancel_job: "cancel the job (scancel, through the webhook)",
  delete_pod: "delete the pod (through the webhook)",
};

/** The actions a target may take. */
export function actionsFor(target: PolicyTarget): readonly PolicyDto["action"][] {
  return target === "host"
    ? POLICY_ACTIONS.filter((a) => a === "stop" || a === "terminate")
    : [TARGET_ACTION[target]];
}

/** The action kept when the target changes: the same where the target allows it, else its first. */
export function actionFor(target: PolicyTarget, action: PolicyDto["action"]): PolicyDto["action"] {
  const allowed = actionsFor(target);
  return allowed.includes(action) ? action : (allowed[0] ?? "stop");
}

/** The hours field's label and hint for a maximum-run-time policy's target. */
export function runHoursText(target: PolicyTarget): [string, string] {
  if (target === "host")
    return ["Host running for (hours)", "counted from its first answer after it last came up"];
  return [
    `${target === "job" ? "Job" : "Pod"} running for (hours)`,
    "counted from the first minute it was seen holding a GPU",
  ];
}
