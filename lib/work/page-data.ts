import "server-only";
import type { TeamScope } from "@/lib/auth/scope.ts";
import { listBenchmarks } from "@/lib/benchmarks/manage.ts";
import { monthOf } from "@/lib/core/months.ts";
import type { MetricsSource } from "@/lib/metrics/source.ts";
import { monthSchema } from "@/lib/zod/schemas/month.ts";
import { compareWorkRows, type CompareWorkRow } from "./compare-rows.ts";
import { getUnitCostMonth } from "./get-unit-cost-month.ts";
import type { UnitCostResult } from "./schema.ts";

// What the costs and compare pages render of the measured work, from their search parameters.

type Param = string | string[] | undefined;
const one = (p: Param) => (Array.isArray(p) ? p[0] : p);

/** The month a page asks for (?month=YYYY-MM), else the current one. */
export function pageMonth(raw: Param, now: Date): string {
  const parsed = monthSchema.safeParse(one(raw));
  return parsed.success ? parsed.data : monthOf(now);
}

export async function costsPageWork(
  params: { month?: Param; work?: Param },
  deps: { metrics: MetricsSource; scope: TeamScope; now?: Date },
): Promise<{ result: UnitCostResult; csvHref: string; toggleHref: string }> {
  const month = pageMonth(params.month, deps.now ?? new Date());
  const split = one(params.work) === "share" ? "share" : "host";
  const result = await getUnitCostMonth(month, { split, metrics: deps.metrics, scope: deps.scope });
  const q = (s: string) => new URLSearchParams({ month, split: s }).toString();
  return {
    result,
    csvHref: `/api/work/unit-costs.csv?${q(split)}`,
    toggleHref: `/costs?${new URLSearchParams({ month, work: split === "share" ? "host" : "share" }).toString()}`,
  };
}

export async function comparePageWork(
  params: { month?: Param },
  deps: { metrics: MetricsSource; scope: TeamScope; now?: Date },
): Promise<CompareWorkRow[]> {
  const now = deps.now ?? new Date();
  const month = pageMonth(params.month, now);
  const [measured, published] = await Promise.all([
    getUnitCostMonth(month, { metrics: deps.metrics, scope: deps.scope }),
    listBenchmarks({ now }),
  ]);
  return compareWorkRows(measured.byType, published, month, monthOf(now));
}

/**
 * Measured work is an addition to a page (instance, costs, compare): when the metrics backend
 * fails it, the rest of the page still renders; the failure is logged and the page says so
 * (`WorkUnavailable`) instead of leaving the panel out without a word.
 */
export async function workOrUnavailable<T>(
  page: string,
  read: Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false }> {
  try {
    return { ok: true, value: await read };
  } catch (e) {
    console.error(`${page}: measured work unavailable: ${String(e)}`);
    return { ok: false };
  }
}
