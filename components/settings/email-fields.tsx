"use client";

import {
  SMTP_TLS_LABELS,
  SMTP_TLS_MODES,
  type EmailChannelConfig,
  type SmtpTls,
} from "@/lib/zod/schemas/email-channel.ts";
import { Field, type Errors } from "./form-bits.tsx";

// An email channel's SMTP settings in the channel form. The password is not entered here: the
// server reads it from a file (this form names the path) or GPUFLEET_SMTP_PASSWORD_FILE.

export interface EmailFormValues {
  host: string;
  port: string;
  tls: SmtpTls;
  from: string;
  to: string;
  username: string;
  passwordFile: string;
  caFile: string;
}

export function emailFormValues(c: EmailChannelConfig | null | undefined): EmailFormValues {
  return {
    host: c?.host ?? "",
    port: c ? String(c.port) : "587",
    tls: c?.tls ?? "starttls",
    from: c?.from ?? "",
    to: c?.to.join(", ") ?? "",
    username: c?.username ?? "",
    passwordFile: c?.passwordFile ?? "",
    caFile: c?.caFile ?? "",
  };
}

/** The values as the API takes them (the schema checks them). */
export function emailInput(v: EmailFormValues): Record<string, unknown> {
  const port = Number(v.port);
  return {
    host: v.host.trim(),
    port: v.port.trim() === "" || !Number.isFinite(port) ? v.port : port,
    tls: v.tls,
    from: v.from.trim(),
    to: v.to
      .split(/[,\s;]+/)
      .map((x) => x.trim())
      .filter((x) => x !== ""),
    username: v.username.trim() === "" ? null : v.username.trim(),
    passwordFile: v.passwordFile.trim() === "" ? null : v.passwordFile.trim(),
    caFile: v.caFile.trim() === "" ? null : v.caFile.trim(),
  };
}

export function EmailFields({
  v,
  set,
  errors,
}: {
  v: EmailFormValues;
  set: (v: EmailFormValues) => void;
  errors: Errors;
}) {
  const text = (key: keyof EmailFormValues, label: string, hint?: string, placeholder?: string) => (
    <Field label={label} error={errors[`email.${key}`]} hint={hint}>
      <input
        type="text"
        value={v[key]}
        placeholder={placeholder}
        onChange={(e) => set({ ...v, [key]: e.target.value })}
        aria-invalid={errors[`email.${key}`] ? true : undefined}
        data-testid={`channel-email-${key}`}
      />
    </Field>
  );
  return (
    <>
      {errors.email ? <p className="field-error">{errors.email}</p> : null}
      {text(
        "host",
        "SMTP server",
        "host name or IP address of your mail relay",
        "smtp.example.com",
      )}
      {text("port", "Port", "465 for implicit TLS, 587 for STARTTLS, 25 for a local relay")}
      <Field label="TLS" error={errors["email.tls"]}>
        <select
          value={v.tls}
          onChange={(e) => set({ ...v, tls: e.target.value as SmtpTls })}
          data-testid="channel-email-tls"
        >
          {SMTP_TLS_MODES.map((m) => (
            <option key={m} value={m}>
              {SMTP_TLS_LABELS[m]}
            </option>
          ))}
        </select>
      </Field>
      {text("from", "From address", undefined, "gpufleet@example.com")}
      {text(
        "to",
        "Team addresses",
        "comma-separated; may be empty when the channel only reaches people mapped in the directory",
      )}
      {text("username", "Username", "optional; leave empty for a relay without login")}
      {text(
        "passwordFile",
        "Password file",
        "absolute path of a file on the server holding the password; empty: GPUFLEET_SMTP_PASSWORD_FILE. The password itself is never stored.",
        "/run/secrets/smtp-password",
      )}
      {text(
        "caFile",
        "CA file",
        "optional: absolute path of a PEM file with the CA of a relay's private certificate; empty: the system's CAs",
      )}
    </>
  );
}
