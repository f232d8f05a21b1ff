import { randomUUID } from "node:crypto";
import {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
  SourceUnavailableError,
} from "@/lib/core/errors.ts";
import { isStoreUnavailable } from "@/lib/core/store-errors.ts";
import type { ApiError } from "@/lib/zod/schemas/common.ts";

// The one error table of the API: every error any route answers with has the body
// { error: <message for people>, code: <stable code for programs>, issues?: [{path, message}] }
// and the status below. Domain errors are thrown by lib/ services; the request-level ones here.

export class BadRequestError extends Error {
  constructor(
    message: string,
    readonly issues: ApiError["issues"] = undefined,
  ) {
    super(message);
    this.name = "BadRequestError";
  }
}

export class PayloadTooLargeError extends Error {
  constructor(limit: number) {
    const mib = limit / (1024 * 1024);
    const size = Number.isInteger(mib) ? `${mib} MiB` : `${Math.round(limit / 1024)} KiB`;
    super(`the request body is larger than ${size}, the most this endpoint accepts`);
    this.name = "PayloadTooLargeError";
  }
}

export class UnsupportedMediaTypeError extends Error {
  constructor(message = "send the body as application/json") {
    super(message);
    this.name = "UnsupportedMediaTypeError";
  }
}

export const ERROR_CODES = {
  bad_request: 400,
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  internal: 500,
  metrics_unavailable: 503,
  store_unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

type ErrorClass = abstract new (...args: never[]) => Error;
const TABLE: ReadonlyArray<[ErrorClass, ErrorCode]> = [
  [BadRequestError, "bad_request"],
  [InvalidInputError, "invalid_input"],
  [NotFoundError, "not_found"],
  [ForbiddenError, "forbidden"],
  [ConflictError, "conflict"],
  [PayloadTooLargeError, "payload_too_large"],
  [UnsupportedMediaTypeError, "unsupported_media_type"],
  [SourceUnavailableError, "metrics_unavailable"],
];

function body(message: string, code: string, issues?: ApiError["issues"]): ApiError {
  return issues ? { error: message, code, issues } : { error: message, code };
}

/** An error answer in the API's one shape; `code` may be a better-auth code passed through. */
export function apiError(
  status: number,
  code: ErrorCode | (string & {}),
  message: string,
  init: { headers?: HeadersInit; issues?: ApiError["issues"] } = {},
): Response {
  return Response.json(body(message, code, init.issues), {
    status,
    headers: { "cache-control": "no-store", ...init.headers },
  });
}

/** Seconds a client should wait before retrying when the store is busy or unreachable. */
export const STORE_RETRY_AFTER_S = 5;

/** Maps a thrown error to its answer; anything not in the table is a 500 without its message. */
export function errorResponse(e: unknown): Response {
  for (const [cls, code] of TABLE) {
    if (e instanceof cls) {
      const issues =
        e instanceof BadRequestError || e instanceof InvalidInputError ? e.issues : undefined;
      return apiError(ERROR_CODES[code], code, e.message, issues ? { issues } : {});
    }
  }
  // A busy or unreachable store is temporary: a 503 the caller may retry, never a stack trace.
  // Its message names files and addresses, so it goes to the log like an internal error's.
  if (isStoreUnavailable(e)) {
    const ref = randomUUID().slice(0, 8);
    console.error(`[api] store unavailable ${ref}:`, e);
    return apiError(
      503,
      "store_unavailable",
      `the database is busy or unreachable; try again shortly (reference ${ref})`,
      { headers: { "retry-after": String(STORE_RETRY_AFTER_S) } },
    );
  }
  // The store's or a library's message can name tables, files and addresses: it goes to the
  // server log under a reference the caller can quote, never into the answer.
  const ref = randomUUID().slice(0, 8);
  console.error(`[api] internal error ${ref}:`, e);
  return apiError(
    500,
    "internal",
    `internal error (reference ${ref}; the details are in the server log)`,
  );
}
