import { z } from "zod";
import { isoTimeSchema } from "./common.ts";
import { RULE_KINDS, RULE_SCOPES } from "./rule.ts";
import { emailChannelConfigSchema } from "./email-channel.ts";

// Notification channels: where alert transitions are POSTed. The URL is a secret (Slack puts its
// token in the path), so it goes in but never comes back out unredacted. "alertmanager" is the
// Alertmanager-shaped *webhook* payload; "alertmanager_api" pushes to an Alertmanager's v2 API.
// "email" sends through an SMTP server (its settings in `email`, lib/zod/schemas/email-channel.ts).

export const CHANNEL_KINDS = [
  "webhook",
  "slack",
  "alertmanager",
  "alertmanager_api",
  "email",
] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** How often open alerts are re-sent to an Alertmanager (its resolve_timeout defaults to 5 min). */
export const ALERTMANAGER_RESEND_INTERVAL_S = 60;

export const CHANNEL_KIND_LABELS: Record<ChannelKind, string> = {
  webhook: "Generic webhook (JSON)",
  slack: "Slack-compatible incoming webhook",
  alertmanager: "Alertmanager-style webhook",
  alertmanager_api: "Alertmanager (API v2)",
  email: "Email (SMTP)",
};

/** One line per kind for the channel form: what the URL is and what is sent there. */
export const CHANNEL_KIND_HELP: Record<ChannelKind, string> = {
  webhook: "POSTs gpufleet's own JSON document to any URL.",
  slack: "POSTs a Slack message to a Slack-compatible incoming-webhook URL.",
  alertmanager:
    "POSTs Alertmanager's webhook payload (version 4) to tools that consume Alertmanager webhooks.",
  alertmanager_api:
    "Pushes alerts to an Alertmanager's API (its base URL): routing, silences and inhibition " +
    `stay in Alertmanager; open alerts are re-sent every ${ALERTMANAGER_RESEND_INTERVAL_S} s.`,
  email:
    "Sends email through your SMTP server to the team's addresses; an idle alert whose holder the " +
    "people directory maps goes to that person's address instead.",
};

const KIND_DESCRIPTION =
  "webhook: gpufleet JSON; slack: Slack incoming webhook; alertmanager: Alertmanager-style webhook " +
  "payload (version 4); alertmanager_api: POST {url}/api/v2/alerts of an Alertmanager, url being " +
  `its base URL, open alerts re-sent every ${ALERTMANAGER_RESEND_INTERVAL_S} s; ` +
  "email: SMTP, settings in `email` (no url)";

/** http(s) only; anything else (file:, javascript:, ftp:) is refused before it is stored. */
export const webhookUrlSchema = z
  .string({ error: "URL is required" })
  .trim()
  .min(1, { error: "URL is required" })
  .max(2000, { error: "at most 2000 characters" })
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: "not a valid URL, e.g. https://hooks.example/x" });
      return;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      ctx.addIssue({ code: "custom", message: "only http:// and https:// URLs are allowed" });
    } else if (!url.hostname) {
      ctx.addIssue({ code: "custom", message: "the URL needs a host" });
    }
  });

export const channelInputSchema = z
  .strictObject({
    name: z
      .string({ error: "name is required" })
      .trim()
      .min(1, { error: "name is required" })
      .max(100, { error: "at most 100 characters" }),
    kind: z
      .enum(CHANNEL_KINDS, { error: `pick one of ${CHANNEL_KINDS.join(", ")}` })
      .describe(KIND_DESCRIPTION),
    url: webhookUrlSchema
      .optional()
      .describe(
        "where to POST; for alertmanager_api the Alertmanager's base URL (with its route prefix, if any); not for email",
      ),
    email: emailChannelConfigSchema.optional().describe("the SMTP settings; email channels only"),
    scopeKind: z.enum(RULE_SCOPES).default("fleet"),
    scopeValue: z.string().trim().max(200).default(""),
    kinds: z
      .array(z.enum(RULE_KINDS))
      .max(RULE_KINDS.length)
      .default([])
      .describe("alert kinds routed here; empty = every kind"),
    enabled: z.boolean().default(true),
  })
  .superRefine((c, ctx) => {
    if (c.kind === "email" && c.email === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["email"],
        message: "an email channel needs its SMTP settings",
      });
    if (c.kind !== "email" && c.url === undefined)
      ctx.addIssue({ code: "custom", path: ["url"], message: "URL is required" });
    if (c.kind !== "email" && c.email !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["email"],
        message: "only email channels take SMTP settings",
      });
    if (c.kind === "email" && c.url !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["url"],
        message: "an email channel has no URL: give `email`",
      });
    if (c.scopeKind !== "fleet" && c.scopeValue === "") {
      ctx.addIssue({
        code: "custom",
        path: ["scopeValue"],
        message: `name the ${c.scopeKind} whose alerts go here`,
      });
    }
  });
export type ChannelInput = z.infer<typeof channelInputSchema>;

export const channelUpdateSchema = z.strictObject({
  name: z.string().optional(),
  kind: z.enum(CHANNEL_KINDS).optional().describe(KIND_DESCRIPTION),
  url: z.string().optional().describe("omit to keep the stored URL"),
  email: emailChannelConfigSchema
    .optional()
    .describe("email channels: the whole SMTP settings, replacing the stored ones"),
  scopeKind: z.enum(RULE_SCOPES).optional(),
  scopeValue: z.string().optional(),
  kinds: z.array(z.string()).optional(),
  enabled: z.boolean().optional(),
});
export type ChannelUpdate = z.infer<typeof channelUpdateSchema>;

export const channelHealthSchema = z.object({
  status: z
    .enum(["ok", "failing", "unused", "disabled"])
    .describe("failing: the last 3 or more delivery attempts all failed"),
  consecutiveFailures: z.number().int(),
  lastAttemptAt: isoTimeSchema.nullable(),
  lastError: z.string().nullable().describe("redacted: no credentials or query tokens"),
  pending: z.number().int(),
  delivered: z.number().int(),
  failed: z.number().int().describe("gave up after the last retry"),
});
export type ChannelHealth = z.infer<typeof channelHealthSchema>;

export const channelSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(CHANNEL_KINDS).describe(KIND_DESCRIPTION),
  url: z
    .string()
    .describe(
      "redacted: userinfo, query values and path tokens masked; email: smtp(s)://host:port",
    ),
  email: emailChannelConfigSchema
    .nullable()
    .describe("email channels: the SMTP settings (the password file's path, never a password)"),
  scopeKind: z.enum(RULE_SCOPES),
  scopeValue: z.string(),
  kinds: z.array(z.enum(RULE_KINDS)),
  enabled: z.boolean(),
  health: channelHealthSchema,
  createdAt: isoTimeSchema,
  updatedAt: isoTimeSchema,
});
export type ChannelDto = z.infer<typeof channelSchema>;

export const channelListSchema = z.object({ channels: z.array(channelSchema) });
export type ChannelList = z.infer<typeof channelListSchema>;

export const channelTestResultSchema = z.object({
  ok: z.boolean(),
  httpStatus: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});
export type ChannelTestResult = z.infer<typeof channelTestResultSchema>;
