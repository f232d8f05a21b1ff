import type { RuleDto, RuleInputRaw, RuleKind, RuleScope } from "../../zod/schemas/rule.ts";
import { parseLabels } from "../../core/labels.ts";
import { ruleFacts } from "../facts.ts";

export interface RuleRow {
  id: string;
  name: string;
  kind: string;
  enabled: boolean;
  scopeKind: string;
  scopeValue: string;
  params: string;
  excludeLabels: string;
  cooldownSeconds: number;
  createdAt: Date;
  updatedAt: Date;
}

export function ruleDto(row: RuleRow, openAlerts: number): RuleDto | null {
  const facts = ruleFacts(row);
  if (!facts) return null;
  return {
    id: row.id,
    name: row.name,
    kind: facts.kind,
    enabled: row.enabled,
    scopeKind: facts.scopeKind,
    scopeValue: row.scopeValue,
    params: facts.params,
    excludeLabels: parseLabels(row.excludeLabels),
    cooldownMinutes: Math.round(row.cooldownSeconds / 60),
    openAlerts,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The stored rule as an input object, so a PATCH can be merged into it and re-validated. */
export function ruleAsInput(row: RuleRow): RuleInputRaw | null {
  const facts = ruleFacts(row);
  if (!facts) return null;
  return {
    name: row.name,
    kind: facts.kind as RuleKind,
    enabled: row.enabled,
    scopeKind: facts.scopeKind as RuleScope,
    scopeValue: row.scopeValue,
    excludeLabels: facts.excludeLabels,
    cooldownMinutes: Math.round(row.cooldownSeconds / 60),
    params: facts.params,
  } as RuleInputRaw;
}
