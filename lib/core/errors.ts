// Domain errors the API maps to HTTP statuses (app/api/_lib/handle.ts).

export class NotFoundError extends Error {
  constructor(what: string) {
    super(`${what} not found`);
    this.name = "NotFoundError";
  }
}

/** The metrics source (embedded store or Prometheus) could not answer. */
export class SourceUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`metrics source unavailable: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = "SourceUnavailableError";
  }
}
