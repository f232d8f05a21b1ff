import "server-only";
import { parseEmailConfig, type EmailChannelConfig } from "../zod/schemas/email-channel.ts";
import { emailBody } from "./email-body.ts";
import type { NotificationMessage } from "./message.ts";
import type { EmailSender } from "./send-email.ts";
import type { SendResult } from "./send.ts";

// The email side of a delivery (deliver.ts, test-channel.ts): which addresses a notification goes
// to (the person it was routed to, else the channel's team addresses) and the send itself.

/** A notification's recipient column: "" (the channel's audience), "email:…" or "slack:…". */
export function recipientEmail(recipient: string): string | null {
  return recipient.startsWith("email:") ? recipient.slice(6) : null;
}

export function recipientSlack(recipient: string): string | null {
  return recipient.startsWith("slack:") ? recipient.slice(6) : null;
}

/** What the target check is run on for an SMTP server: the same host and port as an http URL. */
export function smtpCheckUrl(c: Pick<EmailChannelConfig, "host" | "port">): string {
  return `http://${c.host.includes(":") ? `[${c.host}]` : c.host}:${c.port}/`;
}

export type EmailPlan =
  | { ok: true; config: EmailChannelConfig; to: string[] }
  | { ok: false; error: string; status: "failed" | "suppressed" };

/** The settings and addresses of one email notification, or why it cannot be sent. */
export function planEmail(configJson: string, recipient: string): EmailPlan {
  const config = parseEmailConfig(configJson);
  if (!config)
    return {
      ok: false,
      status: "failed",
      error: "the channel's SMTP settings are missing or invalid",
    };
  const person = recipientEmail(recipient);
  const to = person ? [person] : config.to;
  if (to.length === 0)
    return {
      ok: false,
      status: "suppressed",
      error: "the email channel has no team addresses (it only reaches mapped people)",
    };
  return { ok: true, config, to };
}

export function sendPlanned(
  plan: { config: EmailChannelConfig; to: string[] },
  message: NotificationMessage,
  send: EmailSender,
  opts: { timeoutMs: number; allowPrivate: boolean; publicUrl: string | undefined },
): Promise<SendResult> {
  const body = emailBody(message, opts.publicUrl);
  return send(
    plan.config,
    { to: plan.to, id: message.notificationId, ...body },
    { timeoutMs: opts.timeoutMs, allowPrivate: opts.allowPrivate },
  );
}
