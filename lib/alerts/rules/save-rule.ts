import "server-only";
import { db as defaultDb, type Db } from "../../db.ts";
import { NotFoundError, parseOrThrow } from "../../core/errors.ts";
import {
  ruleInputSchema,
  type RuleDto,
  type RuleInput,
  type RuleUpdate,
} from "../../zod/schemas/rule.ts";
import { getRule } from "./list-rules.ts";
import { ruleAsInput } from "./rule-dto.ts";

/** A rule as stored (shared with the default rules every store starts with). */
export function ruleRow(r: RuleInput) {
  return {
    name: r.name,
    kind: r.kind,
    enabled: r.enabled,
    scopeKind: r.scopeKind,
    scopeValue: r.scopeKind === "fleet" ? "" : r.scopeValue,
    params: JSON.stringify(r.params),
    excludeLabels: JSON.stringify(r.excludeLabels),
    cooldownSeconds: r.cooldownMinutes * 60,
  };
}

export async function createRule(input: RuleInput, client: Db = defaultDb): Promise<RuleDto> {
  const row = await client.alertRule.create({ data: ruleRow(input) });
  return getRule(row.id, { scope: null, client });
}

/** Merges a partial change into the stored rule and validates the result as a whole. */
export async function updateRule(
  id: string,
  patch: RuleUpdate,
  client: Db = defaultDb,
): Promise<RuleDto> {
  const row = await client.alertRule.findUnique({ where: { id } });
  const current = row ? ruleAsInput(row) : null;
  if (!current) throw new NotFoundError(`rule ${id}`);
  const merged = {
    ...current,
    ...patch,
    params: { ...(current.params ?? {}), ...(patch.params ?? {}) },
  };
  const next = parseOrThrow(ruleInputSchema, merged, "rule");
  await client.alertRule.update({ where: { id }, data: ruleRow(next) });
  return getRule(id, { scope: null, client });
}

export async function deleteRule(id: string, client: Db = defaultDb): Promise<void> {
  const done = await client.alertRule.deleteMany({ where: { id } });
  if (done.count === 0) throw new NotFoundError(`rule ${id}`);
}
