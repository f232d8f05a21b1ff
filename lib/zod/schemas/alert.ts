import { z } from "zod";
import { isoTimeSchema } from "./common.ts";
import { ALERT_KINDS, RULE_KINDS } from "./rule.ts";

// Alerts and their life: firing → acknowledged → resolved, with snooze; every change an event.

export const ALERT_STATES = ["firing", "acknowledged", "resolved"] as const;
export type AlertState = (typeof ALERT_STATES)[number];
export const SEVERITIES = ["info", "warning", "critical"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The list's state filter: "open" is firing or acknowledged; "snoozed" open and snoozed now. */
export const ALERT_FILTER_STATES = [
  "open",
  "firing",
  "acknowledged",
  "snoozed",
  "resolved",
  "all",
] as const;
export type AlertFilterState = (typeof ALERT_FILTER_STATES)[number];

const filterText = z.string().trim().min(1).max(200);

export const alertListQuerySchema = z.strictObject({
  state: z.enum(ALERT_FILTER_STATES).default("open"),
  kind: z.enum(RULE_KINDS).optional(),
  team: filterText.optional(),
  project: filterText.optional(),
  hostId: filterText.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});
export type AlertListQuery = z.infer<typeof alertListQuerySchema>;

export const alertSchema = z.object({
  id: z.string(),
  ruleId: z.string(),
  ruleName: z.string(),
  kind: z.enum(ALERT_KINDS),
  severity: z.enum(SEVERITIES),
  state: z.enum(ALERT_STATES),
  snoozedUntil: isoTimeSchema.nullable(),
  snoozed: z.boolean().describe("snoozedUntil is in the future: no notifications until then"),
  summary: z.string(),
  details: z.record(z.string(), z.unknown()),
  hostId: z.string().nullable(),
  hostname: z.string().nullable(),
  gpuUuid: z.string().nullable(),
  team: z.string().nullable(),
  project: z.string().nullable(),
  owner: z.string().nullable(),
  startsAt: isoTimeSchema,
  endsAt: isoTimeSchema.nullable(),
  acknowledgedBy: z.string().nullable(),
  acknowledgedAt: isoTimeSchema.nullable(),
  resolvedBy: z.string().nullable(),
  clearSince: isoTimeSchema
    .nullable()
    .describe(
      "resolving: the condition cleared at this time and the alert resolves once it stays clear for the resolve hold (still firing to channels until then); null otherwise",
    ),
  updatedAt: isoTimeSchema,
});
export type AlertDto = z.infer<typeof alertSchema>;

export const alertEventSchema = z.object({
  id: z.string(),
  from: z.string().nullable(),
  to: z.string(),
  by: z.string().nullable(),
  note: z.string().nullable(),
  at: isoTimeSchema,
});

export const notificationAttemptSchema = z.object({
  at: isoTimeSchema,
  httpStatus: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});

export const alertNotificationSchema = z.object({
  id: z.string(),
  channelId: z.string(),
  channelName: z.string(),
  transition: z.string(),
  recipient: z
    .string()
    .nullable()
    .describe(
      "the person an idle alert went to instead of the channel's own destination (the GPU's holder or the host's owner, through the people directory), e.g. `email ada@example.com` or `Slack <@U0…>`; null: the channel's destination",
    ),
  status: z.string(),
  attempts: z.number().int(),
  nextAttemptAt: isoTimeSchema,
  lastError: z.string().nullable(),
  deliveredAt: isoTimeSchema.nullable(),
  attemptLog: z.array(notificationAttemptSchema),
});

export const alertDetailSchema = alertSchema.extend({
  events: z.array(alertEventSchema),
  notifications: z.array(alertNotificationSchema),
});
export type AlertDetail = z.infer<typeof alertDetailSchema>;

export const alertListSchema = z.object({
  alerts: z.array(alertSchema),
  counts: z.object({
    firing: z.number().int(),
    acknowledged: z.number().int(),
    snoozed: z.number().int(),
    resolved: z.number().int(),
  }),
  facets: z.object({
    teams: z.array(z.string()),
    projects: z.array(z.string()),
    hosts: z.array(z.object({ id: z.string(), hostname: z.string() })),
  }),
  lastEvaluatedAt: isoTimeSchema.nullable(),
  generatedAt: isoTimeSchema,
});
export type AlertList = z.infer<typeof alertListSchema>;

const note = z.string().trim().max(500, { error: "at most 500 characters" }).optional();

export const acknowledgeInputSchema = z.strictObject({ note });
export const resolveInputSchema = z.strictObject({ note });
export const snoozeInputSchema = z
  .strictObject({
    until: isoTimeSchema.optional().describe("snooze until this time"),
    minutes: z
      .number()
      .int()
      .min(1, { error: "at least 1 minute" })
      .max(43_200, { error: "at most 30 days" })
      .optional()
      .describe("or for this many minutes from now"),
    note,
  })
  .refine((s) => (s.until === undefined) !== (s.minutes === undefined), {
    error: "give either until or minutes",
  });

export const evaluateResultSchema = z.object({
  rules: z.number().int(),
  fired: z.number().int(),
  resolved: z.number().int(),
  notificationsQueued: z.number().int(),
  errors: z.array(z.string()),
});
export type EvaluateResult = z.infer<typeof evaluateResultSchema>;

/** What one request to POST /api/alerts/bulk does to every alert it names. */
export const BULK_ALERT_ACTIONS = ["acknowledge", "snooze", "resolve"] as const;
export type BulkAlertAction = (typeof BULK_ALERT_ACTIONS)[number];
export const BULK_ALERT_LIMIT = 500;

export const alertBulkInputSchema = z
  .strictObject({
    ids: z
      .array(z.string().trim().min(1, { error: "an alert id" }).max(200))
      .min(1, { error: "name at least one alert" })
      .max(BULK_ALERT_LIMIT, { error: `at most ${BULK_ALERT_LIMIT} alerts at once` })
      .describe("the alerts to act on; each gets its own result"),
    action: z.enum(BULK_ALERT_ACTIONS),
    minutes: z
      .number()
      .int()
      .min(1, { error: "at least 1 minute" })
      .max(43_200, { error: "at most 30 days" })
      .optional()
      .describe("snooze: for this many minutes from now (required to snooze, refused otherwise)"),
    note,
  })
  .refine((s) => (s.action === "snooze") === (s.minutes !== undefined), {
    error: "minutes is required to snooze, and only then",
    path: ["minutes"],
  });

export const alertBulkItemResultSchema = z.object({
  id: z.string(),
  ok: z.boolean(),
  error: z.string().optional().describe("why this alert was not changed (ok=false)"),
});
export type AlertBulkItemResult = z.infer<typeof alertBulkItemResultSchema>;

export const alertBulkResultSchema = z.object({
  action: z.enum(BULK_ALERT_ACTIONS),
  results: z
    .array(alertBulkItemResultSchema)
    .describe("one per distinct id, in the order given; one failure does not stop the rest"),
  succeeded: z.number().int(),
  failed: z.number().int(),
});
export type AlertBulkResult = z.infer<typeof alertBulkResultSchema>;
