import { z } from "zod";
import { isoTimeSchema } from "./common.ts";

// Alert rules: one schema shared by the settings form, the API and the evaluator, so a rule the
// form accepts is exactly a rule the collector can evaluate.

export const RULE_KINDS = [
  "idle",
  "budget",
  "exporter_down",
  "gpu_missing",
  "ecc",
  "temperature",
  "throttle",
  "spot_interruption",
  "metrics_backend_down",
] as const;
export type RuleKind = (typeof RULE_KINDS)[number];
export const ruleKindSchema = z.enum(RULE_KINDS);

export const RULE_KIND_LABELS: Record<RuleKind, string> = {
  idle: "Idle GPU",
  budget: "Budget",
  exporter_down: "Exporter not reporting",
  gpu_missing: "GPU stopped reporting",
  ecc: "Uncorrected ECC errors",
  temperature: "Temperature",
  throttle: "Thermal / power throttling",
  spot_interruption: "Spot reclaim announced",
  metrics_backend_down: "Metrics backend down",
};

/** Alerts raised by features rather than by a rule's evaluation (no rule form offers them). */
export const ALERT_ONLY_KINDS = ["policy_action_failed"] as const;
export const ALERT_KINDS = [...RULE_KINDS, ...ALERT_ONLY_KINDS] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  ...RULE_KIND_LABELS,
  policy_action_failed: "Policy action failed",
};

export const RULE_SCOPES = ["fleet", "team", "project", "host"] as const;
export type RuleScope = (typeof RULE_SCOPES)[number];

const minutes = (max: number) =>
  z
    .number({ error: "a number of minutes" })
    .int({ error: "whole minutes" })
    .min(1, { error: "at least 1 minute" })
    .max(max, { error: `at most ${max} minutes` });

const ratio = z
  .number({ error: "a ratio between 0 and 1" })
  .min(0, { error: "at least 0" })
  .max(1, { error: "at most 100 % (a ratio of 1)" });

export const idleParamsSchema = z.strictObject({
  utilThreshold: ratio.default(0.05).describe("idle while SM utilization stays under this (0-1)"),
  durationMinutes: minutes(10_080).default(30).describe("for at least this long"),
  heldMemRatio: ratio
    .default(0.01)
    .describe("memory used above this share of the GPU counts as held (as does a process)"),
  notify: z
    .enum(["held_and_empty", "held", "empty"])
    .default("held_and_empty")
    .describe("which idle GPUs raise an alert"),
});

export const budgetParamsSchema = z.strictObject({
  basis: z
    .array(z.enum(["actual", "forecast"]))
    .min(1, { error: "pick actual, forecast or both" })
    .default(["actual", "forecast"]),
});

const missedSchema = z.strictObject({
  missedIntervals: z
    .number()
    .int()
    .min(1, { error: "at least 1 interval" })
    .max(1000)
    .default(2)
    .describe("collection intervals without data before it fires"),
});

export const eccParamsSchema = z.strictObject({
  windowMinutes: minutes(43_200).default(1440).describe("look for new errors over this window"),
  minIncrease: z.number().int().min(1, { error: "at least 1" }).default(1),
});

export const temperatureParamsSchema = z.strictObject({
  limitCelsius: z
    .number({ error: "degrees Celsius" })
    .min(30, { error: "at least 30 °C" })
    .max(130, { error: "at most 130 °C" })
    .default(85),
  durationMinutes: minutes(1440).default(5),
});

export const throttleParamsSchema = z.strictObject({
  classes: z
    .array(z.enum(["thermal", "power"]))
    .min(1, { error: "pick thermal, power or both" })
    .default(["thermal", "power"]),
  minRatio: ratio.default(0.8).describe("share of the window with the clock event active"),
  durationMinutes: minutes(1440).default(15),
});

/** Spot interruption: fires on the provider's notice itself, so there is nothing to tune. */
export const spotInterruptionParamsSchema = z.strictObject({});

export type MissedParams = z.infer<typeof missedSchema>;

const labelMap = z
  .record(
    z.string().trim().min(1, { error: "label name must not be empty" }).max(100),
    z.string().max(200),
  )
  .refine((m) => Object.keys(m).length <= 20, { error: "at most 20 labels" });

const common = {
  name: z
    .string({ error: "name is required" })
    .trim()
    .min(1, { error: "name is required" })
    .max(100, { error: "at most 100 characters" }),
  enabled: z.boolean().default(true),
  scopeKind: z.enum(RULE_SCOPES).default("fleet"),
  scopeValue: z.string().trim().max(200).default(""),
  excludeLabels: labelMap
    .default({})
    .describe("hosts carrying any of these label values are excluded"),
  cooldownMinutes: z
    .number()
    .int()
    .min(0, { error: "at least 0" })
    .max(10_080, { error: "at most 7 days" })
    .default(60)
    .describe("a condition that returns within this time does not notify again"),
};

export const ruleInputSchema = z
  .discriminatedUnion("kind", [
    z.strictObject({ ...common, kind: z.literal("idle"), params: idleParamsSchema.prefault({}) }),
    z.strictObject({
      ...common,
      kind: z.literal("budget"),
      params: budgetParamsSchema.prefault({}),
    }),
    z.strictObject({
      ...common,
      kind: z.literal("exporter_down"),
      params: missedSchema.prefault({}),
    }),
    z.strictObject({
      ...common,
      kind: z.literal("gpu_missing"),
      params: missedSchema.prefault({}),
    }),
    z.strictObject({ ...common, kind: z.literal("ecc"), params: eccParamsSchema.prefault({}) }),
    z.strictObject({
      ...common,
      kind: z.literal("temperature"),
      params: temperatureParamsSchema.prefault({}),
    }),
    z.strictObject({
      ...common,
      kind: z.literal("throttle"),
      params: throttleParamsSchema.prefault({}),
    }),
    z.strictObject({
      ...common,
      kind: z.literal("spot_interruption"),
      params: spotInterruptionParamsSchema.prefault({}),
    }),
    z.strictObject({
      ...common,
      kind: z.literal("metrics_backend_down"),
      params: missedSchema.prefault({}),
    }),
  ])
  .superRefine((r, ctx) => {
    if (r.scopeKind !== "fleet" && r.scopeValue === "") {
      ctx.addIssue({
        code: "custom",
        path: ["scopeValue"],
        message: `name the ${r.scopeKind} this rule is limited to`,
      });
    }
    if (r.kind === "budget" && r.scopeKind === "host") {
      ctx.addIssue({
        code: "custom",
        path: ["scopeKind"],
        message: "budgets are per fleet, team or project (providers: use the fleet scope)",
      });
    }
    if (r.kind === "metrics_backend_down" && r.scopeKind !== "fleet") {
      ctx.addIssue({
        code: "custom",
        path: ["scopeKind"],
        message: "the metrics backend serves the whole fleet: use the fleet scope",
      });
    }
  });
export type RuleInput = z.infer<typeof ruleInputSchema>;
export type RuleInputRaw = z.input<typeof ruleInputSchema>;

/** PATCH body: any subset; the server merges it into the stored rule and validates the whole. */
export const ruleUpdateSchema = z.strictObject({
  name: z.string().optional(),
  enabled: z.boolean().optional(),
  scopeKind: z.enum(RULE_SCOPES).optional(),
  scopeValue: z.string().optional(),
  excludeLabels: z.record(z.string(), z.string()).optional(),
  cooldownMinutes: z.number().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
});
export type RuleUpdate = z.infer<typeof ruleUpdateSchema>;

export const ruleSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: ruleKindSchema,
  enabled: z.boolean(),
  scopeKind: z.enum(RULE_SCOPES),
  scopeValue: z.string(),
  params: z.record(z.string(), z.unknown()),
  excludeLabels: z.record(z.string(), z.string()),
  cooldownMinutes: z.number().int(),
  openAlerts: z.number().int().describe("alerts of this rule now firing or acknowledged"),
  createdAt: isoTimeSchema,
  updatedAt: isoTimeSchema,
});
export type RuleDto = z.infer<typeof ruleSchema>;

export const ruleListSchema = z.object({ rules: z.array(ruleSchema) });
export type RuleList = z.infer<typeof ruleListSchema>;

/** Parses a stored rule's params, falling back to the kind's defaults for anything invalid. */
export function parseRuleParams(kind: RuleKind, json: string): Record<string, unknown> {
  let raw: unknown = {};
  try {
    raw = JSON.parse(json);
  } catch {
    raw = {};
  }
  const schema = PARAMS_BY_KIND[kind];
  const parsed = schema.safeParse(raw);
  return parsed.success ? parsed.data : schema.parse({});
}

export const PARAMS_BY_KIND: Record<RuleKind, z.ZodType<Record<string, unknown>>> = {
  idle: idleParamsSchema,
  budget: budgetParamsSchema,
  exporter_down: missedSchema,
  gpu_missing: missedSchema,
  ecc: eccParamsSchema,
  temperature: temperatureParamsSchema,
  throttle: throttleParamsSchema,
  spot_interruption: spotInterruptionParamsSchema,
  metrics_backend_down: missedSchema,
};
