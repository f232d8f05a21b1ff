import "server-only";
import { readFile } from "node:fs/promises";
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "../env.ts";
import { checkAddress } from "../net/webhook-target.ts";
import type { EmailChannelConfig } from "../zod/schemas/email-channel.ts";
import type { SendResult } from "./send.ts";

// One email through an email channel's SMTP server (nodemailer), with a hard time limit. The
// server's name is resolved here and every address checked by the webhook target policy; the
// connection then goes to the address checked, TLS still verifying the certificate against the
// name (no second lookup that DNS could answer differently). The password is read from its file
// at each send, never stored. Errors say what failed by nodemailer's code and the SMTP reply
// code, never quoting the server's text (as webhook deliveries never quote a body).

export interface EmailMessage {
  to: readonly string[];
  subject: string;
  text: string;
  html: string;
  /** the notification id: a Message-ID receivers can drop repeats by (at-least-once) */
  id: string;
}

export interface EmailSendOptions {
  timeoutMs: number;
  /** the admin allows private targets (vetTarget decided) */
  allowPrivate: boolean;
}

export type EmailSender = (
  config: EmailChannelConfig,
  message: EmailMessage,
  opts: EmailSendOptions,
) => Promise<SendResult>;

class SmtpSetupError extends Error {}

/** The SMTP password: the channel's file, else GPUFLEET_SMTP_PASSWORD_FILE; one line, not empty. */
export async function smtpPassword(
  config: Pick<EmailChannelConfig, "username" | "passwordFile">,
  fallbackFile: string | undefined = env.GPUFLEET_SMTP_PASSWORD_FILE,
): Promise<string | null> {
  if (!config.username) return null;
  const path = config.passwordFile ?? fallbackFile;
  if (!path)
    throw new SmtpSetupError(
      "the channel has a username but no password file (set one, or GPUFLEET_SMTP_PASSWORD_FILE)",
    );
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    throw new SmtpSetupError(
      `cannot read the SMTP password file ${path} (${(e as NodeJS.ErrnoException).code ?? "unreadable"})`,
    );
  }
  const secret = text.replace(/[\r\n]+$/, "");
  if (secret === "") throw new SmtpSetupError(`the SMTP password file ${path} is empty`);
  if (/[\r\n\0]/.test(secret))
    throw new SmtpSetupError(`the SMTP password file ${path} holds more than one line`);
  return secret;
}

/** The CA file's PEM when the channel names one (a relay with a private CA). */
async function caOf(config: Pick<EmailChannelConfig, "caFile">): Promise<string | undefined> {
  if (!config.caFile) return undefined;
  try {
    return await readFile(config.caFile, "utf8");
  } catch (e) {
    throw new SmtpSetupError(
      `cannot read the SMTP CA file ${config.caFile} (${(e as NodeJS.ErrnoException).code ?? "unreadable"})`,
    );
  }
}

/** The address to connect to: the host's (an IP as given), each answer checked by the policy. */
async function checkedAddress(host: string, port: number, allowPrivate: boolean): Promise<string> {
  const answers = isIP(host)
    ? [host]
    : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  for (const a of answers) {
    const v = checkAddress(a, port, { allowPrivate, host: isIP(host) ? undefined : host });
    if (!v.ok) throw new SmtpSetupError(`refused: ${v.reason}`);
  }
  const first = answers[0];
  if (!first) throw new SmtpSetupError(`no address for ${host}`);
  return first;
}

const WHAT: Record<string, string> = {
  EAUTH: "the SMTP server refused the username or password",
  ENOAUTH: "the SMTP server asks for authentication and the channel has no username",
  ECONNECTION: "could not connect to the SMTP server",
  ESOCKET: "the connection to the SMTP server failed",
  ETIMEDOUT: "the SMTP server did not answer in time",
  ETLS: "TLS with the SMTP server failed (certificate or STARTTLS)",
  EENVELOPE: "the SMTP server refused the sender or a recipient",
  EMESSAGE: "the SMTP server refused the message",
  EPROTOCOL: "the SMTP server answered something unexpected",
  EDNS: "the SMTP server's name did not resolve",
};

/** What a failed send says: nodemailer's code, the SMTP reply code, never the server's words. */
export function describeSmtpError(e: unknown): string {
  const err = e as { code?: string; responseCode?: number; message?: string };
  if (e instanceof SmtpSetupError) return err.message ?? "SMTP setup error";
  const code = typeof err.code === "string" ? err.code : "";
  const reply = typeof err.responseCode === "number" ? ` (SMTP ${err.responseCode})` : "";
  if (code === "ETLS" && /STARTTLS/i.test(err.message ?? ""))
    return `the SMTP server does not offer STARTTLS, which the channel requires${reply}`;
  if (/certificate/i.test(err.message ?? ""))
    return `the SMTP server's TLS certificate did not verify (a private CA: set the channel's CA file)${code ? ` [${code}]` : ""}`;
  const what = WHAT[code] ?? "sending through the SMTP server failed";
  return `${what}${code ? ` [${code}]` : ""}${reply}`;
}

export const sendEmail: EmailSender = async (config, message, opts) => {
  const started = Date.now();
  const done = (ok: boolean, error: string | null): SendResult => ({
    ok,
    httpStatus: null,
    error,
    durationMs: Date.now() - started,
  });
  if (message.to.length === 0) return done(false, "no recipient");
  let transport: Transporter | null = null;
  try {
    const password = await smtpPassword(config);
    const ca = await caOf(config);
    const address = await checkedAddress(config.host, config.port, opts.allowPrivate);
    transport = nodemailer.createTransport({
      host: address,
      port: config.port,
      secure: config.tls === "implicit",
      requireTLS: config.tls === "starttls",
      ignoreTLS: config.tls === "none",
      tls: {
        minVersion: "TLSv1.2",
        ...(ca ? { ca } : {}),
        ...(isIP(config.host) ? {} : { servername: config.host }),
      },
      auth: config.username && password ? { user: config.username, pass: password } : undefined,
      connectionTimeout: opts.timeoutMs,
      greetingTimeout: opts.timeoutMs,
      socketTimeout: opts.timeoutMs,
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    const sending = transport.sendMail({
      from: config.from,
      to: [...message.to],
      subject: message.subject,
      text: message.text,
      html: message.html,
      messageId: `<${message.id}@gpufleet>`,
      headers: { "X-Gpufleet-Notification": message.id },
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error("timeout"), { code: "ETIMEDOUT" })),
        opts.timeoutMs * 3,
      );
    });
    try {
      await Promise.race([sending, limit]);
    } finally {
      clearTimeout(timer);
    }
    return done(true, null);
  } catch (e) {
    return done(false, describeSmtpError(e));
  } finally {
    transport?.close();
  }
};
