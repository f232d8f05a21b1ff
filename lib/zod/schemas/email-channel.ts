import { z } from "zod";

// An email channel's SMTP settings (issue 24). The password is never stored: `passwordFile` names
// a file the server reads at each send (or GPUFLEET_SMTP_PASSWORD_FILE in the environment), as
// Prometheus's credentials are read (lib/metrics/prometheus/connection.ts). Plain SMTP without TLS
// is allowed only to a relay on this machine's loopback.

export const SMTP_TLS_MODES = ["implicit", "starttls", "none"] as const;
export type SmtpTls = (typeof SMTP_TLS_MODES)[number];

export const SMTP_TLS_LABELS: Record<SmtpTls, string> = {
  implicit: "implicit TLS (SMTPS, usually port 465)",
  starttls: "STARTTLS required (usually port 587)",
  none: "none (only to a relay on 127.0.0.1)",
};

/** Hosts plain SMTP may go to: the loopback relay, whose traffic never leaves the machine. */
export const PLAIN_SMTP_HOSTS = ["127.0.0.1", "::1"] as const;

const address = z
  .email({ error: "not an email address" })
  .max(254, { error: "at most 254 characters" });

export const emailChannelConfigSchema = z
  .strictObject({
    host: z
      .string({ error: "the SMTP server's host name or address is required" })
      .trim()
      .min(1, { error: "the SMTP server's host name or address is required" })
      .max(253, { error: "at most 253 characters" })
      .regex(/^[A-Za-z0-9.:_-]+$/, { error: "a host name or an IP address, nothing else" })
      .describe("the SMTP server (relay) to send through"),
    port: z
      .number({ error: "a port number" })
      .int({ error: "a port number" })
      .min(1, { error: "1–65535" })
      .max(65535, { error: "1–65535" }),
    tls: z
      .enum(SMTP_TLS_MODES, { error: `pick one of ${SMTP_TLS_MODES.join(", ")}` })
      .describe(
        "implicit: TLS from the first byte (SMTPS); starttls: plain connection upgraded with STARTTLS, refused when the server does not offer it; none: only to 127.0.0.1 or ::1",
      ),
    from: address.describe("the From address"),
    to: z
      .array(address)
      .max(50, { error: "at most 50 addresses" })
      .default([])
      .describe(
        "the team's addresses: alerts routed to this channel go here; idle alerts whose holder the people directory maps go to that person instead",
      ),
    username: z
      .string()
      .trim()
      .max(200, { error: "at most 200 characters" })
      .nullable()
      .default(null)
      .describe("SMTP user; the password comes from passwordFile or GPUFLEET_SMTP_PASSWORD_FILE"),
    passwordFile: z
      .string()
      .trim()
      .max(1000, { error: "at most 1000 characters" })
      .regex(/^\//, { error: "an absolute path on the server" })
      .nullable()
      .default(null)
      .describe("absolute path of a file on the server holding the SMTP password (one line)"),
    caFile: z
      .string()
      .trim()
      .max(1000, { error: "at most 1000 characters" })
      .regex(/^\//, { error: "an absolute path on the server" })
      .nullable()
      .default(null)
      .describe(
        "absolute path of a PEM file with the CA that signed the SMTP server's certificate (a private CA); unset: the system's CAs",
      ),
  })
  .superRefine((c, ctx) => {
    if (c.tls === "none" && !(PLAIN_SMTP_HOSTS as readonly string[]).includes(c.host)) {
      ctx.addIssue({
        code: "custom",
        path: ["tls"],
        message: "SMTP without TLS is allowed only to 127.0.0.1 or ::1: use implicit or starttls",
      });
    }
    if (c.passwordFile !== null && (c.username === null || c.username === "")) {
      ctx.addIssue({
        code: "custom",
        path: ["username"],
        message: "a password file needs a username",
      });
    }
  });
export type EmailChannelConfig = z.infer<typeof emailChannelConfigSchema>;

/** The stored settings read back; null when they are missing or malformed. */
export function parseEmailConfig(json: string): EmailChannelConfig | null {
  try {
    const parsed = emailChannelConfigSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** What the channel's `url` column holds for an email channel (shown in lists and errors). */
export function smtpUrl(c: Pick<EmailChannelConfig, "host" | "port" | "tls">): string {
  const host = c.host.includes(":") ? `[${c.host}]` : c.host;
  return `${c.tls === "implicit" ? "smtps" : "smtp"}://${host}:${c.port}`;
}
