import "server-only";
import { budgetInScope, type TeamScope } from "../auth/scope.ts";
import { db as defaultDb, type Db } from "../db.ts";
import { NotFoundError } from "../core/errors.ts";
import type { BudgetDto, BudgetList, BudgetScope } from "../zod/schemas/budget.ts";
import { loadBudgetFigures, loadBudgetFiguresMany, type BudgetRow } from "./load-status.ts";
import type { BudgetFigures } from "./status.ts";
import { parseThresholds, statusDto } from "./status.ts";

function toDto(
  b: BudgetRow & { createdAt: Date; updatedAt: Date },
  figures: BudgetFigures,
): BudgetDto {
  return {
    id: b.id,
    name: b.name,
    scopeKind: b.scopeKind as BudgetScope,
    scopeValue: b.scopeValue,
    amountMicros: b.amountMicros.toString(),
    currency: b.currency,
    thresholds: parseThresholds(b.thresholds),
    status: statusDto(figures),
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
  const figures = await loadBudgetFiguresMany(client, visible, now);
  return { budgets: visible.map((b, i) => toDto(b, figures[i] as BudgetFigures)) };
}

/** One budget; another team's budget does not exist for a team-limited user (404). */
export async function getBudget(
  id: string,
  { scope, client = defaultDb, now = new Date() }: { scope: TeamScope; client?: Db; now?: Date },
): Promise<BudgetDto> {
  const b = await client.budget.findUnique({ where: { id } });
  if (!b || !budgetInScope(scope, b)) throw new NotFoundError(`budget ${id}`);
  return toDto(b, await loadBudgetFigures(client, b, now));
}
