import { z } from "zod";

// Minimal client for the Prometheus HTTP API (also served by Thanos, Mimir, VictoriaMetrics).
// Responses are validated so a proxy's HTML error page becomes a clear error, not a crash.

const vectorSchema = z.array(
  z.object({ metric: z.record(z.string(), z.string()), value: z.tuple([z.number(), z.string()]) }),
);
const matrixSchema = z.array(
  z.object({
    metric: z.record(z.string(), z.string()),
    values: z.array(z.tuple([z.number(), z.string()])),
  }),
);
const envelope = z.object({
  status: z.enum(["success", "error"]),
  data: z.object({ resultType: z.string(), result: z.unknown() }).optional(),
  error: z.string().optional(),
  errorType: z.string().optional(),
});

export type InstantVector = z.infer<typeof vectorSchema>;
export type RangeMatrix = z.infer<typeof matrixSchema>;

export class PromApiError extends Error {}

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
      return vectorSchema.parse(await call("/api/v1/query", params));
    },
    async queryRange(promql: string, from: Date, to: Date, stepS: number): Promise<RangeMatrix> {
      return matrixSchema.parse(
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
