import "server-only";
import type { TeamScope } from "@/lib/auth/scope.ts";
import { monthBounds } from "@/lib/core/months.ts";
import { db as defaultDb, type Db } from "@/lib/db.ts";
import type { MetricsSource } from "@/lib/metrics/source.ts";
import { getUnitCosts } from "./get-unit-costs.ts";
import { MINIMUMS, toRowDto, toTypeDto, type UnitCostResult } from "./schema.ts";

/** A month's measured cost per unit of work in the caller's scope (the API's and pages' DTO). */
export async function getUnitCostMonth(
  month: string,
  opts: {
    split?: "host" | "share";
    hostId?: string;
    client?: Db;
    metrics: MetricsSource;
    scope: TeamScope;
  },
): Promise<UnitCostResult> {
  const split = opts.split ?? "host";
  const { from, to } = monthBounds(month);
  const r = await getUnitCosts(
    { from, to, split: split === "share", ...(opts.hostId ? { hostIds: [opts.hostId] } : {}) },
    { client: opts.client ?? defaultDb, metrics: opts.metrics, scope: opts.scope },
  );
  return {
    month,
    split,
    minimums: MINIMUMS,
    hosts: r.hosts.map(toRowDto),
    byType: r.byType.map(toTypeDto),
  };
}
