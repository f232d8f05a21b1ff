import "server-only";
import { budgetInScope, type TeamScope } from "../auth/scope.ts";
import { db as defaultDb, type Db } from "../db.ts";
import { NotFoundError } from "../core/errors.ts";
import type { BudgetDto, BudgetList, BudgetScope } from "../zod/schemas/budget.ts";
import { loadBudgetFigures, type BudgetRow } from "./load-status.ts";
import { parseThresholds, statusDto } from "./status.ts";

async function toDto(
  client: Db,
  b: BudgetRow & { createdAt: Date; updatedAt: Date },
  now: Date,
): Promise<BudgetDto> {
  return {
    id: b.id,
    name: b.name,
    scopeKind: b.scopeKind as BudgetScope,
    scopeValue: b.scopeValue,
    amountMicros: b.amountMicros.toString(),
    currency: b.currency,
    thresholds: parseThresholds(b.thresholds),
    status: statusDto(await loadBudgetFigures(client, b, now)),
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
  };
}

/** The budgets visible within `scope` (a team-limited user sees their teams' budgets only). */
export async function listBudgets({
  scope,
  client = defaultDb,
  now = new Date(),
}: {
  scope: TeamScope;
  client?: Db;
  now?: Date;
}): Promise<BudgetList> {
  const rows = await client.budget.findMany({ orderBy: [{ scopeKind: "asc" }, { name: "asc" }] });
  const visible = rows.filter((b) => budgetInScope(scope, b));
  return { budgets: await Promise.all(visible.map((b) => toDto(client, b, now))) };
}

/** One budget; another team's budget does not exist for a team-limited user (404). */
export async function getBudget(
  id: string,
  { scope, client = defaultDb, now = new Date() }: { scope: TeamScope; client?: Db; now?: Date },
): Promise<BudgetDto> {
  const b = await client.budget.findUnique({ where: { id } });
  if (!b || !budgetInScope(scope, b)) throw new NotFoundError(`budget ${id}`);
  return toDto(client, b, now);
}
