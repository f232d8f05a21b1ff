import "server-only";
import type { TeamScope } from "@/lib/auth/scope.ts";
import { SharedBody } from "@/lib/server/precompressed.ts";
import { cachedFleetFor } from "./fleet-cache.ts";

// The fleet API's body, serialized once per cached snapshot and variant: at 10,000 GPUs it is
// ~2.6 MB of JSON, and stringifying (then gzipping) it for every request was most of a request's
// time.

const bodies = new WeakMap<object, Map<string, SharedBody>>();

/**
 * The /api/fleet JSON for `scope`; `withBudget` false drops the budget (roles without the costs
 * pages). Equal to JSON.stringify of getFleetSummary's answer, reused while the snapshot and its
 * health are unchanged.
 */
export async function fleetSummaryJson(scope: TeamScope, withBudget: boolean): Promise<SharedBody> {
  const { view, generatedAt, health } = await cachedFleetFor(scope);
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
