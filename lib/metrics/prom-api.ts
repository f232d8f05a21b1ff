import { z } from "zod";

// Minimal client for the Prometheus HTTP API (also served by Thanos, Mimir, VictoriaMetrics).
// Responses are validated so a proxy's HTML error page becomes a clear error, not a crash.

// Result arrays are checked by hand: a zod parse of every sample costs more than the query itself
// at 10,000 GPUs (tens of thousands of series), and blocks the event loop while it runs.
export interface InstantSample {
  metric: Record<string, string>;
  value: [number, string];
}
export interface RangeSeries {
  metric: Record<string, string>;
  values: Array<[number, string]>;
}
const envelope = z.object({
  status: z.enum(["success", "error"]),
  data: z.object({ resultType: z.string(), result: z.unknown() }).optional(),
  error: z.string().optional(),
  errorType: z.string().optional(),
});

export type InstantVector = InstantSample[];
export type RangeMatrix = RangeSeries[];

export class PromApiError extends Error {}

function isPoint(p: unknown): p is [number, string] {
  return Array.isArray(p) && typeof p[0] === "number" && typeof p[1] === "string";
}

function isLabels(m: unknown): m is Record<string, string> {
  return typeof m === "object" && m !== null && !Array.isArray(m);
}

function shapeError(kind: string): PromApiError {
  return new PromApiError(`Prometheus answered with something that is not ${kind}`);
}

/** The `result` of an instant query, checked to be a vector. */
export function asVector(result: unknown): InstantVector {
  if (!Array.isArray(result)) throw shapeError("a vector");
  for (const s of result as Array<Partial<InstantSample> | null>) {
    if (!s || !isLabels(s.metric) || !isPoint(s.value)) throw shapeError("a vector");
  }
  return result as InstantVector;
}

/** The `result` of a range query, checked to be a matrix. */
export function asMatrix(result: unknown): RangeMatrix {
  if (!Array.isArray(result)) throw shapeError("a matrix");
  for (const s of result as Array<Partial<RangeSeries> | null>) {
    if (!s || !isLabels(s.metric) || !Array.isArray(s.values) || !s.values.every(isPoint))
      throw shapeError("a matrix");
  }
  return result as RangeMatrix;
}

export function createPromClient(baseUrl: string, timeoutMs = 10_000) {
  const base = baseUrl.replace(/\/+$/, "");

  async function call(path: string, params: Record<string, string>): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(params),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      const err = e as Error;
      throw new PromApiError(
        err.name === "TimeoutError"
          ? `Prometheus did not answer within ${timeoutMs} ms`
          : `Prometheus unreachable at ${base}: ${err.message}`,
      );
    }
    const text = await res.text();
    let body: z.infer<typeof envelope>;
    try {
      body = envelope.parse(JSON.parse(text));
    } catch {
      throw new PromApiError(
        `Prometheus at ${base} answered HTTP ${res.status} with something that is not its API`,
      );
    }
    if (body.status === "error" || !body.data) {
      throw new PromApiError(
        `Prometheus query failed: ${body.errorType ?? ""} ${body.error ?? ""}`.trim(),
      );
    }
    return body.data.result;
  }

  return {
    async query(promql: string, at?: Date): Promise<InstantVector> {
      const params: Record<string, string> = { query: promql };
      if (at) params.time = String(at.getTime() / 1000);
      return asVector(await call("/api/v1/query", params));
    },
    async queryRange(promql: string, from: Date, to: Date, stepS: number): Promise<RangeMatrix> {
      return asMatrix(
        await call("/api/v1/query_range", {
          query: promql,
          start: String(from.getTime() / 1000),
          end: String(to.getTime() / 1000),
          step: String(stepS),
        }),
      );
    },
  };
}

export type PromClient = ReturnType<typeof createPromClient>;

export function promNumber(v: string): number | null {
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

/** Escapes a value for use inside a PromQL double-quoted label matcher. */
export function promString(v: string): string {
  return JSON.stringify(v);
}
