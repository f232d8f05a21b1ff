import "server-only";
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
  if (!row) return null;
  return {
    name: row.name,
    amountMicros: row.amountMicros,
    currency: row.currency,
    thresholds: parseThresholds(row.thresholds),
  };
}
