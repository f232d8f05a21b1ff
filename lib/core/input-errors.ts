import type { z } from "zod";

// Domain errors of alerts, budgets, channels and recommendations; the API maps them to 409 / 400.

export class ConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConflictError";
  }
}

export interface Issue {
  path: string;
  message: string;
}

export class InvalidInputError extends Error {
  constructor(
    message: string,
    readonly issues: Issue[],
  ) {
    super(message);
    this.name = "InvalidInputError";
  }
}

export function issuesOf(error: z.ZodError): Issue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
}

/** Parses or throws InvalidInputError with a one-line summary and per-field issues. */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issues = issuesOf(r.error);
  const summary = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
  throw new InvalidInputError(`invalid ${what}: ${summary}`, issues);
}
