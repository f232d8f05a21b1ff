import type { z } from "zod";
import { HttpError } from "./fetch-json.ts";

// Mutations (POST / PATCH / DELETE) against our own API. A 400 carries the server's per-field
// issues so forms can show them beside the field, exactly as the client-side check would.

export interface FieldIssue {
  path: string;
  message: string;
}

export class ApiRequestError extends HttpError {
  constructor(
    status: number,
    message: string,
    readonly issues: FieldIssue[] = [],
  ) {
    super(status, message);
    this.name = "ApiRequestError";
  }
}

export async function sendJson<S extends z.ZodType>(
  method: "POST" | "PATCH" | "DELETE",
  url: string,
  body: unknown,
  schema: S | null,
  /** how long to wait for the answer; long-running changes (re-pricing a month) pass more */
  timeoutMs = 20_000,
): Promise<z.output<S> | null> {
  const res = await fetch(url, {
    method,
    headers: { "content-type": "application/json", accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (res.status === 204) return null;
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const d = (data ?? {}) as { error?: unknown; issues?: unknown };
    const issues = Array.isArray(d.issues) ? (d.issues as FieldIssue[]) : [];
    throw new ApiRequestError(
      res.status,
      typeof d.error === "string" ? d.error : `HTTP ${res.status}`,
      issues,
    );
  }
  if (!schema) return null;
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new Error(`unexpected response from ${url}`);
  return parsed.data;
}
