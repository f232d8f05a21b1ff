import type { z } from "zod";

// Domain errors, in one place for every feature; app/api/_lib/errors.ts maps each to its HTTP
// status and the one error body every route answers with.

export class NotFoundError extends Error {
  constructor(what: string) {
    super(`${what} not found`);
    this.name = "NotFoundError";
  }
}

/** The caller may see the thing but not make this change (a team-limited user's budget elsewhere). */
export class ForbiddenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ForbiddenError";
  }
}

/** The metrics source (embedded store or Prometheus) could not answer. */
export class SourceUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`metrics source unavailable: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = "SourceUnavailableError";
  }
}

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
