import "server-only";
import { budgetInScope, type TeamScope } from "../auth/scope.ts";
import { ConflictError, ForbiddenError, NotFoundError, parseOrThrow } from "../core/errors.ts";
import { formatMicros, parseMicros } from "../core/money.ts";
import { db as defaultDb, type Db } from "../db.ts";
import { isUniqueViolation } from "../core/store-errors.ts";
import {
  budgetInputSchema,
  type BudgetDto,
  type BudgetInput,
  type BudgetUpdate,
} from "../zod/schemas/budget.ts";
import { getBudget } from "./list-budgets.ts";
import { parseThresholds } from "./status.ts";

function toRow(b: BudgetInput) {
  return {
    name: b.name,
    scopeKind: b.scopeKind,
    scopeValue: b.scopeKind === "fleet" ? "" : b.scopeValue,
    amountMicros: parseMicros(b.amount),
    thresholds: JSON.stringify(b.thresholds),
  };
}

function duplicate(b: BudgetInput): ConflictError {
  const scope = b.scopeKind === "fleet" ? "the fleet" : `${b.scopeKind} ${b.scopeValue}`;
  return new ConflictError(`a budget for ${scope} already exists: edit it instead`);
}

const OWN_TEAMS = "forbidden: you may only set budgets for your own teams";

/**
 * Every change takes the acting user's scope (teamScope(actor)): a team-limited user may only
 * create, move or delete budgets of their own teams; others' budgets do not exist for them.
 */
export async function createBudget(
  input: BudgetInput,
  scope: TeamScope,
  client: Db = defaultDb,
): Promise<BudgetDto> {
  if (!budgetInScope(scope, input)) throw new ForbiddenError(OWN_TEAMS);
  try {
    const row = await client.budget.create({ data: toRow(input) });
    return getBudget(row.id, { scope, client });
  } catch (e) {
    if (isUniqueViolation(e)) throw duplicate(input);
    throw e;
  }
}

export async function updateBudget(
  id: string,
  patch: BudgetUpdate,
  scope: TeamScope,
  client: Db = defaultDb,
): Promise<BudgetDto> {
  const row = await client.budget.findUnique({ where: { id } });
  if (!row || !budgetInScope(scope, row)) throw new NotFoundError(`budget ${id}`);
  const current = {
    name: row.name,
    scopeKind: row.scopeKind,
    scopeValue: row.scopeValue,
    amount: formatMicros(row.amountMicros).replace(/\.?0+$/, ""),
    thresholds: parseThresholds(row.thresholds),
  };
  const next = parseOrThrow(budgetInputSchema, { ...current, ...patch }, "budget");
  if (!budgetInScope(scope, next)) throw new ForbiddenError(OWN_TEAMS);
  try {
    await client.budget.update({ where: { id }, data: toRow(next) });
  } catch (e) {
    if (isUniqueViolation(e)) throw duplicate(next);
    throw e;
  }
  return getBudget(id, { scope, client });
}

export async function deleteBudget(
  id: string,
  scope: TeamScope,
  client: Db = defaultDb,
): Promise<void> {
  const row = await client.budget.findUnique({
    where: { id },
    select: { scopeKind: true, scopeValue: true },
  });
  if (!row || !budgetInScope(scope, row)) throw new NotFoundError(`budget ${id}`);
  const done = await client.budget.deleteMany({ where: { id } });
  if (done.count === 0) throw new NotFoundError(`budget ${id}`);
}
