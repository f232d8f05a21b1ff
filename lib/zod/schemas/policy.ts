import { z } from "zod";
import { isoTimeSchema, microsSchema, requiredText } from "./common.ts";

// Policies that act (issue 25). idle_release: every GPU of a host idle for idleHours → stop (or
// terminate, only if chosen). max_runtime: a host running for idleHours since it last came up →
// the same (docs/architecture.md "Domain rules"). Every policy starts in dry run; warnings at
// fractions of idleHours, then a grace period after the last warning. The API, the settings form
// and the client share this.

export const POLICY_KINDS = ["idle_release", "max_runtime", "scale"] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];
export const POLICY_MODES = ["dry_run", "active"] as const;
export const POLICY_ACTIONS = ["stop", "terminate", "cancel_job", "delete_pod"] as const;
/** What a maximum-run-time policy counts: a host's run, a Slurm job's or a Kubernetes pod's. */
export const POLICY_TARGETS = ["host", "job", "pod"] as const;
export type PolicyTarget = (typeof POLICY_TARGETS)[number];
/** The action that ends a job's or a pod's run (a host's is stop or terminate). */
export const TARGET_ACTION = { job: "cancel_job", pod: "delete_pod" } as const;
/** The executors that can end a job or a pod: a cloud's instance API cannot. */
export const RUN_EXECUTORS: readonly PolicyExecutor[] = ["simulated", "webhook"];
export const POLICY_SCOPES = ["fleet", "team", "project", "label"] as const;
export const POLICY_EXECUTORS = [
  "simulated",
  "webhook",
  "aws",
  "gcp",
  "azure",
  "alibaba",
  "tencent",
] as const;
/** The executors that can scale a pool (a scale policy's choice). */
export const SCALE_EXECUTORS: readonly PolicyExecutor[] = [
  "simulated",
  "webhook",
  "aws",
  "gcp",
  "azure",
];
export type PolicyScope = (typeof POLICY_SCOPES)[number];
export type PolicyExecutor = (typeof POLICY_EXECUTORS)[number];
export const KEEP_HOURS = [4, 8, 24] as const;

/**
 * A scale policy (kind "scale"): a pool whose GPUs spend at least `highMark` of `highMinutes`
 * busy above it → scale out by one; at most lowMark busy for `lowMinutes` → scale in by one;
 * `cooldownMinutes` after a signal the pool is left alone; the size stays within [min, max].
 */
export const scaleSettingsSchema = z
  .strictObject({
    highMark: z.number().gt(0).max(1).default(0.8),
    highMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(15),
    lowMark: z.number().min(0).lt(1).default(0.2),
    lowMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(60),
    cooldownMinutes: z
      .number()
      .int()
      .min(0)
      .max(24 * 60)
      .default(10),
    min: z.number().int().min(0).max(10_000).default(0),
    max: z.number().int().min(1).max(10_000).default(10),
  })
  .refine((s) => s.lowMark < s.highMark, { error: "the low mark must be below the high mark" })
  .refine((s) => s.min <= s.max, { error: "min must not exceed max" });
export type ScaleSettings = z.infer<typeof scaleSettingsSchema>;

/** "key=value", as host labels are matched (scope by label, the opt-out label). */
export const labelMatchSchema = z
  .string()
  .trim()
  .max(200, { error: "at most 200 characters" })
  .regex(/^[A-Za-z0-9_./-]+=[^\p{Cc}=]*$/u, { error: "a label as key=value" });

const base = {
  name: requiredText("name", 100),
  kind: z.enum(POLICY_KINDS),
  action: z.enum(POLICY_ACTIONS),
  /** idle_release: hours every GPU is idle; max_runtime: hours the host has run */
  idleHours: z
    .number({ error: "hours, a number" })
    .min(1, { error: "at least 1 hour" })
    .max(24 * 30, { error: "at most 30 days" }),
  warnAt: z
    .array(
      z
        .number({ error: "a fraction of the idle hours" })
        .gt(0, { error: "above 0" })
        .lt(1, { error: "below 1" }),
    )
    .min(1, { error: "at least one warning" })
    .max(5, { error: "at most 5 warnings" })
    .transform((ws) => [...new Set(ws)].sort((a, b) => a - b)),
  graceMinutes: z
    .number()
    .int({ error: "whole minutes" })
    .min(0)
    .max(7 * 24 * 60, { error: "at most 7 days" }),
  scopeKind: z.enum(POLICY_SCOPES),
  scopeValue: z.string().trim().max(200),
  executor: z.enum(POLICY_EXECUTORS),
  webhookUrl: z
    .url({ protocol: /^https?$/, error: "an http(s) URL" })
    .max(2000)
    .nullable(),
  optOutLabel: labelMatchSchema,
  enabled: z.boolean(),
  scale: scaleSettingsSchema.nullable(),
  /** max_runtime: host (default), job (Slurm) or pod (Kubernetes) */
  target: z.enum(POLICY_TARGETS),
};

const fields = {
  ...base,
  kind: base.kind.default("idle_release"),
  action: base.action.default("stop"),
  idleHours: base.idleHours.default(24),
  warnAt: base.warnAt.default([0.5, 0.9]),
  graceMinutes: base.graceMinutes.default(60),
  scopeKind: base.scopeKind.default("fleet"),
  scopeValue: base.scopeValue.default(""),
  executor: base.executor.default("simulated"),
  webhookUrl: base.webhookUrl.default(null),
  optOutLabel: base.optOutLabel.default("gpufleet.io/keep=true"),
  enabled: base.enabled.default(true),
  scale: base.scale.default(null),
  target: base.target.default("host"),
};

type Checked = {
  kind: PolicyKind;
  scale: ScaleSettings | null;
  scopeKind: PolicyScope;
  scopeValue: string;
  executor: PolicyExecutor;
  webhookUrl: string | null;
  target: PolicyTarget;
  action: (typeof POLICY_ACTIONS)[number];
};

function checkTarget(p: Checked, ctx: z.RefinementCtx) {
  const issue = (path: string, message: string) =>
    ctx.addIssue({ code: "custom", path: [path], message });
  if (p.target === "host") {
    if (p.action !== "stop" && p.action !== "terminate")
      issue("action", "a host is stopped or terminated");
    return;
  }
  if (p.kind !== "max_runtime")
    issue("target", "only a maximum-run-time policy counts a job's or a pod's run");
  const want = TARGET_ACTION[p.target];
  if (p.action !== want) issue("action", `a ${p.target}'s run ends with ${want}`);
  if (!RUN_EXECUTORS.includes(p.executor))
    issue(
      "executor",
      `a cloud's instance API (${p.executor}) cannot end a ${p.target === "job" ? "Slurm job" : "pod"}: ` +
        "choose the signed webhook (a scancel or kubectl wrapper) or, in the demo, the simulated cloud",
    );
}

function checkPolicy(p: Checked, ctx: z.RefinementCtx) {
  checkTarget(p, ctx);
  if (p.scopeKind === "fleet" && p.scopeValue !== "")
    ctx.addIssue({ code: "custom", path: ["scopeValue"], message: "a fleet policy has no value" });
  if (p.scopeKind !== "fleet" && p.scopeValue === "")
    ctx.addIssue({ code: "custom", path: ["scopeValue"], message: `name the ${p.scopeKind}` });
  if (p.scopeKind === "label" && !labelMatchSchema.safeParse(p.scopeValue).success)
    ctx.addIssue({ code: "custom", path: ["scopeValue"], message: "a label as key=value" });
  if (p.kind === "scale" && !p.scale)
    ctx.addIssue({ code: "custom", path: ["scale"], message: "a scale policy needs its settings" });
  if (p.kind !== "scale" && p.scale)
    ctx.addIssue({ code: "custom", path: ["scale"], message: "only a scale policy has these" });
  if (p.kind === "scale" && !SCALE_EXECUTORS.includes(p.executor))
    ctx.addIssue({
      code: "custom",
      path: ["executor"],
      message: "scaling goes through the simulated, webhook, aws, gcp or azure executor",
    });
  if (p.executor === "webhook" && !p.webhookUrl)
    ctx.addIssue({
      code: "custom",
      path: ["webhookUrl"],
      message: "the webhook executor needs a URL",
    });
}

/** A new policy: always created in dry run (mode is not an input here). */
export const policyInputSchema = z.strictObject(fields).superRefine(checkPolicy);
export type PolicyInput = z.infer<typeof policyInputSchema>;

/** A change: any field, and the mode (dry run ↔ active). */
export const policyUpdateSchema = z
  .strictObject({ ...base, mode: z.enum(POLICY_MODES) })
  .partial()
  .refine((p) => Object.keys(p).length > 0, { error: "nothing to change" });
export type PolicyUpdate = z.infer<typeof policyUpdateSchema>;

export const policySchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(POLICY_KINDS),
  mode: z.enum(POLICY_MODES),
  action: z.enum(POLICY_ACTIONS),
  idleHours: z.number().describe("idle_release: hours idle; max_runtime: hours running"),
  warnAt: z.array(z.number()),
  graceMinutes: z.number().int(),
  scopeKind: z.enum(POLICY_SCOPES),
  scopeValue: z.string(),
  executor: z.enum(POLICY_EXECUTORS),
  webhookUrl: z.string().nullable().describe("shown without its query string or user info"),
  optOutLabel: z.string(),
  enabled: z.boolean(),
  scale: z
    .object({
      highMark: z.number(),
      highMinutes: z.number().int(),
      lowMark: z.number(),
      lowMinutes: z.number().int(),
      cooldownMinutes: z.number().int(),
      min: z.number().int(),
      max: z.number().int(),
    })
    .nullable()
    .describe("kind scale only"),
  target: z
    .enum(POLICY_TARGETS)
    .describe("max_runtime: a host's run, a Slurm job's (job) or a Kubernetes pod's (pod)"),
  createdAt: isoTimeSchema,
  updatedAt: isoTimeSchema,
});
export type PolicyDto = z.infer<typeof policySchema>;

/** One thing a policy would do (dry run) or is doing (active). */
export const plannedActionSchema = z.object({
  policyId: z.string(),
  policyName: z.string(),
  kind: z.enum(POLICY_KINDS),
  mode: z.enum(POLICY_MODES),
  hostId: z.string(),
  hostname: z.string(),
  run: z
    .object({
      kind: z.enum(["job", "pod"]),
      ref: z.string().describe("the Slurm job id, or the pod's uid (else namespace/name)"),
      name: z.string().nullable().describe("the pod's name where known"),
      namespace: z.string().nullable(),
      user: z.string().nullable(),
      account: z.string().nullable(),
      gpus: z.number().describe("GPUs it held when last seen"),
      label: z.string().describe('"job 4242 (alice)", "pod ml/trainer-0"'),
    })
    .nullable()
    .describe("a job's or pod's run (max_runtime target job | pod); null for a host"),
  action: z
    .enum([...POLICY_ACTIONS, "resize"])
    .describe("resize: a right-size accepted from a recommendation (resizeTo)"),
  resizeTo: z.string().nullable().optional().describe("resize only: the target instance type"),
  idleSince: isoTimeSchema.describe(
    "when the episode's clock started: idle since (idle_release) or running since (max_runtime)",
  ),
  /** when the policy acts (or would act): idle for idleHours, after the last warning's grace */
  actAt: isoTimeSchema,
  state: z.string().describe("open | acting | acted | failed"),
  warningsSent: z.number().int(),
  keepUntil: isoTimeSchema.nullable(),
  hourlyMicros: microsSchema
    .nullable()
    .describe(
      "the host's price per hour (a run's: its GPUs × the per-GPU price); null when unpriced",
    ),
  monthlySavingMicros: microsSchema
    .nullable()
    .describe("what stopping (or resizing) it saves over 730 hours; null when unpriced"),
});
export type PlannedActionDto = z.infer<typeof plannedActionSchema>;

export const savingsSchema = z.object({
  month: z.string(),
  savedMicros: microsSchema.describe("price × hours stopped by policies within the month"),
  hosts: z.array(
    z.object({
      hostId: z.string(),
      hostname: z.string(),
      stoppedHours: z.number(),
      savedMicros: microsSchema,
      stoppedAt: isoTimeSchema,
      resumedAt: isoTimeSchema.nullable(),
    }),
  ),
});
export type SavingsDto = z.infer<typeof savingsSchema>;

/** A scale policy's signal for one pool: what it would do (dry run) or did (active). */
export const scaleSignalSchema = z.object({
  id: z.string(),
  policyId: z.string(),
  policyName: z.string(),
  mode: z.enum(POLICY_MODES),
  pool: z.string().describe('"asg:<name>" or "type:<instance type>|team:<team>"'),
  direction: z.enum(["out", "in"]),
  share: z
    .number()
    .describe("share of the pool's GPU time at or above the high mark (out), below the low (in)"),
  hosts: z.number().int().describe("hosts of the pool up when the signal fired"),
  fromSize: z.number().int(),
  toSize: z.number().int(),
  state: z
    .enum(["recorded", "acted", "retrying", "failed"])
    .describe(
      "retrying: the executor failed in a way worth retrying; it is called again with backoff",
    ),
  detail: z.string().nullable(),
  at: isoTimeSchema,
});
export type ScaleSignalDto = z.infer<typeof scaleSignalSchema>;
export const scaleSignalListSchema = z.object({ signals: z.array(scaleSignalSchema) });

export const policyListSchema = z.object({ policies: z.array(policySchema) });
export const plannedActionListSchema = z.object({ actions: z.array(plannedActionSchema) });

export const keepInputSchema = z.strictObject({
  token: z.string().min(1, { error: "token is required" }).max(200, { error: "not a keep link" }),
});
export const keepResultSchema = z.object({
  hostname: z.string(),
  run: z
    .string()
    .nullable()
    .describe('the job or pod kept on the host ("job 4242 (alice)"); null: the host itself'),
  hours: z.number().int(),
  keepUntil: isoTimeSchema,
});
