import type { TeamScope } from "@/lib/auth/scope.ts";
import type { Prisma } from "@/lib/generated/prisma/client.ts";

/** Ledger rows of the hosts within `scope` (the host's team now, not the row's attribution). */
export function ledgerScopeWhere(scope: TeamScope): Prisma.UsageHourWhereInput {
  return scope === null ? {} : { host: { team: { in: [...scope] } } };
}

/** Day roll-up rows (UsageDay) of the hosts within `scope`, as ledgerScopeWhere. */
export function dayScopeWhere(scope: TeamScope): Prisma.UsageDayWhereInput {
  return scope === null ? {} : { host: { team: { in: [...scope] } } };
}
