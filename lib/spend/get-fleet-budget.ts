import "server-only";
import { singleTeam, type TeamScope } from "@/lib/auth/scope.ts";
import { db as defaultDb, type Db } from "@/lib/db.ts";

export interface FleetBudget {
  name: string;
  amountMicros: bigint;
  currency: string;
  thresholds: number[];
}

function parseThresholds(json: string): number[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is number => typeof v === "number") : [];
  } catch {
    return [];
  }
}

/** The monthly fleet-wide budget (Budget with scopeKind "fleet"), if one is set. */
export async function getFleetBudget(client: Db = defaultDb): Promise<FleetBudget | null> {
  const row = await client.budget.findFirst({
    where: { scopeKind: "fleet" },
    orderBy: { createdAt: "asc" },
  });
  return row ? toBudget(row) : null;
}

/**
 * The budget that stands for the spend `scope` sees: the fleet budget when unlimited; for a user
 * limited to one team, that team's budget; none for several teams (no one budget covers them).
 */
export async function getScopeBudget(
  scope: TeamScope,
  client: Db = defaultDb,
): Promise<FleetBudget | null> {
  if (scope === null) return getFleetBudget(client);
  const team = singleTeam(scope);
  if (team === null) return null;
  const row = await client.budget.findUnique({
    where: { scopeKind_scopeValue: { scopeKind: "team", scopeValue: team } },
  });
  return row ? toBudget(row) : null;
}

function toBudget(row: {
  name: string;
  amountMicros: bigint;
  currency: string;
  thresholds: string;
}): FleetBudget {
  return {
    name: row.name,
    amountMicros: row.amountMicros,
    currency: row.currency,
    thresholds: parseThresholds(row.thresholds),
  };
}
