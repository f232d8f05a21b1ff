"use client";

import type { ReactNode } from "react";
import type { z } from "zod";
import { ApiRequestError, type FieldIssue } from "@/lib/queries/settings-send.ts";

// Forms check their values with the entity's zod schema (the one the API uses) before sending,
// and show the server's per-field issues the same way if it still refuses.

export type Errors = Record<string, string>;

export function errorsOf(issues: readonly FieldIssue[]): Errors {
  const out: Errors = {};
  for (const i of issues) if (!(i.path in out)) out[i.path] = i.message;
  return out;
}

export function zodErrors(error: z.ZodError): Errors {
  return errorsOf(
    error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })),
  );
}

/** Errors from a failed request: per field when the API named fields, else under "". */
export function requestErrors(e: unknown): Errors {
  if (e instanceof ApiRequestError && e.issues.length > 0) {
    const errs = errorsOf(e.issues);
    return "" in errs ? errs : { ...errs, "": e.message };
  }
  return { "": e instanceof Error ? e.message : String(e) };
}

export function Field({
  label,
  error,
  children,
  hint,
}: {
  label: string;
  error: string | undefined;
  children: ReactNode;
  hint?: string;
}) {
  return (
    <label className="field">
      {label}
      {children}
      {hint && !error ? <span className="muted small">{hint}</span> : null}
      {error ? (
        <span className="field-error" role="alert" data-testid="field-error">
          {error}
        </span>
      ) : null}
    </label>
  );
}

/** A labelled text input whose error comes from the same zod schema the API validates with. */
export function TextField({
  label,
  value,
  onChange,
  error,
  hint,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  hint?: string;
  testId: string;
}) {
  return (
    <Field label={label} error={error} hint={hint}>
      <input
        type="text"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        data-testid={testId}
      />
    </Field>
  );
}

export function FormError({ errors }: { errors: Errors }) {
  const general = errors[""];
  if (!general) return null;
  return (
    <div className="banner error" role="alert" data-testid="form-error">
      <strong>Not saved</strong> {general}
    </div>
  );
}

/** "50, 80, 100" → [50, 80, 100]; anything not a number stays NaN so the schema reports it. */
export function parseNumberList(text: string): number[] {
  return text
    .split(/[\s,;]+/)
    .filter((s) => s !== "")
    .map((s) => Number(s));
}

/** A numeric input's text: "" → undefined (the schema's default applies), else a number. */
export function numberOrUndefined(text: string): number | undefined {
  return text.trim() === "" ? undefined : Number(text);
}

/** "env=dev, owner=bob" → { env: "dev", owner: "bob" }; null when an entry lacks "=". */
export function parseLabels(text: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const part of text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")) {
    const eq = part.indexOf("=");
    if (eq <= 0) return null;
    out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

export function labelsText(labels: Record<string, string>): string {
  return Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(", ");
}

/** A destructive action asked twice: the first click arms it, the second does it; Cancel disarms. */
export function ConfirmButton({
  verb,
  subject,
  confirming,
  disabled,
  onClick,
  onCancel,
  testId,
}: {
  /** "Delete", "Revoke" */
  verb: string;
  /** what it acts on, for screen readers: an email, a token name */
  subject: string;
  confirming: boolean;
  disabled?: boolean;
  onClick: () => void;
  onCancel: () => void;
  testId: string;
}) {
  return (
    <>
      <button
        type="button"
        className="danger"
        disabled={disabled}
        onClick={onClick}
        aria-label={
          confirming ? `Confirm ${verb.toLowerCase()} of ${subject}` : `${verb} ${subject}`
        }
        data-testid={testId}
      >
        {confirming ? `Confirm ${verb.toLowerCase()}` : verb}
      </button>
      {confirming ? (
        <button type="button" onClick={onCancel} data-testid={`${testId}-cancel`}>
          Cancel
        </button>
      ) : null}
    </>
  );
}
