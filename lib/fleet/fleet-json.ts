import "server-only";
import type { TeamScope } from "@/lib/auth/scope.ts";
import { SharedBody } from "@/lib/server/precompressed.ts";
import type { SourceHealthDto } from "@/lib/zod/schemas/common.ts";
import { cachedFleetFor, type FleetView } from "./fleet-cache.ts";

// The fleet API's body, serialized once per cached snapshot and variant, and gzipped once
// (lib/server/precompressed.ts). It carries the headline, the groups and the first page of the
// problem list (tens of KB at any fleet size); the GPUs themselves are paged by /api/fleet/gpus.

const bodies = new WeakMap<object, Map<string, SharedBody>>();

/**
 * The summary body of `view` with this health; `withBudget` false drops the budget (roles without
 * the costs pages). Reused while the view and its health are unchanged.
 */
export function fleetSummaryBody(
  view: FleetView,
  generatedAt: string,
  health: SourceHealthDto,
  withBudget: boolean,
): SharedBody {
  let byVariant = bodies.get(view);
  if (!byVariant) {
    byVariant = new Map();
    bodies.set(view, byVariant);
  }
  const key = `${withBudget ? "b" : "-"}${JSON.stringify(health)}`;
  let body = byVariant.get(key);
  if (body === undefined) {
    const summary = { generatedAt, health, ...view.summary };
    body = new SharedBody(
      JSON.stringify(
        withBudget ? summary : { ...summary, month: { ...summary.month, budgetMicros: null } },
      ),
    );
    // health changes rarely (a failed rebuild, going stale): keep only the latest few variants
    if (byVariant.size > 8) byVariant.clear();
    byVariant.set(key, body);
  }
  return body;
}

/** The /api/fleet JSON for `scope`: equal to JSON.stringify of getFleetSummary's answer. */
export async function fleetSummaryJson(scope: TeamScope, withBudget: boolean): Promise<SharedBody> {
  const { view, generatedAt, health } = await cachedFleetFor(scope);
  return fleetSummaryBody(view, generatedAt, health, withBudget);
}
