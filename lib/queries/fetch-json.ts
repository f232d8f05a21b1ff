import type { z } from "zod";

/** A non-2xx answer from our own API, with the server's message. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

function messageOf(body: unknown, status: number): string {
  if (typeof body === "object" && body !== null && "error" in body) {
    const e = (body as { error: unknown }).error;
    if (typeof e === "string") return e;
  }
  return `HTTP ${status}`;
}

export const REQUEST_TIMEOUT_MS = 20_000;

/** GETs a JSON route and validates the body with the route's own response schema. */
export async function fetchJson<S extends z.ZodType>(
  url: string,
  schema: S,
  signal?: AbortSignal,
): Promise<z.output<S>> {
  // A hung server must end in an error the page can show, not an endless spinner.
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const res = await fetch(url, {
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    headers: { accept: "application/json" },
  });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new HttpError(res.status, messageOf(body, res.status));
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error(`unexpected response from ${url}`);
  return parsed.data;
}

/** Do not retry what will fail the same way again (400, 404). */
export function retryTransient(failureCount: number, error: Error): boolean {
  if (error instanceof HttpError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}
