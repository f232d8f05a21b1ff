import { parseRuleParams, RULE_KINDS, type RuleKind, type RuleScope } from "../zod/schemas/rule.ts";
import { parseLabels } from "../core/labels.ts";
import type { Severity } from "../zod/schemas/alert.ts";
import type { Audience } from "../notify/audience.ts";

// Plain shapes the evaluators read, so they stay pure and testable on hand-made data.

export interface HostFacts {
  id: string;
  hostname: string;
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  team: string;
  project: string;
  owner: string | null;
  labels: Record<string, string>;
  state: string;
  lastError: string | null;
  firstSeen: Date;
  lastSeen: Date | null;
  /** catalogue price of the whole instance, per hour; null when unpriced */
  hourlyMicros: bigint | null;
  gpuCount: number;
  /** spot hosts: a reclaim notice was pending at the last answer, and for when (if given) */
  interruptionPending?: boolean;
  interruptionAt?: Date | null;
}

export interface GpuFacts {
  uuid: string;
  hostId: string;
  index: number;
  name: string;
  parentUuid: string | null;
  firstSeen: Date;
  lastSeen: Date | null;
}

export interface RuleFacts {
  id: string;
  name: string;
  kind: RuleKind;
  scopeKind: RuleScope;
  scopeValue: string;
  excludeLabels: Record<string, string>;
  params: Record<string, unknown>;
  cooldownSeconds: number;
}

/** A rule's condition that holds right now; the engine turns it into an alert. */
export interface Condition {
  /** rule + subject: one open alert per fingerprint */
  fingerprint: string;
  severity: Severity;
  hostId: string | null;
  gpuUuid: string | null;
  team: string | null;
  project: string | null;
  summary: string;
  details: Record<string, unknown>;
  /** escalating conditions (budget thresholds): a higher level notifies again */
  level?: number;
  /** who the alert is for instead of the team (an idle GPU's holders, then its owner); not stored */
  audience?: Audience;
}

export function ruleFacts(row: {
  id: string;
  name: string;
  kind: string;
  scopeKind: string;
  scopeValue: string;
  excludeLabels: string;
  params: string;
  cooldownSeconds: number;
}): RuleFacts | null {
  const kinds: readonly string[] = RULE_KINDS;
  if (!kinds.includes(row.kind)) return null;
  const kind = row.kind as RuleKind;
  const scopes: readonly string[] = ["fleet", "team", "project", "host"];
  return {
    id: row.id,
    name: row.name,
    kind,
    scopeKind: (scopes.includes(row.scopeKind) ? row.scopeKind : "fleet") as RuleScope,
    scopeValue: row.scopeValue,
    excludeLabels: parseLabels(row.excludeLabels),
    params: parseRuleParams(kind, row.params),
    cooldownSeconds: row.cooldownSeconds,
  };
}

/** Labels a rule can exclude on: the host's own labels plus its attribution fields. */
export function matchableLabels(h: HostFacts): Record<string, string> {
  return {
    ...h.labels,
    hostname: h.hostname,
    provider: h.provider,
    instance_type: h.instanceType,
    region: h.region,
    pricing_model: h.pricingModel,
    team: h.team,
    project: h.project,
    ...(h.owner ? { owner: h.owner } : {}),
  };
}

/** In the rule's scope and not excluded by label ("*" excludes any value of that label). */
export function hostInScope(rule: RuleFacts, h: HostFacts): boolean {
  const v = rule.scopeValue;
  const inScope =
    rule.scopeKind === "fleet" ||
    (rule.scopeKind === "team" && h.team === v) ||
    (rule.scopeKind === "project" && h.project === v) ||
    (rule.scopeKind === "host" && (h.id === v || h.hostname === v));
  if (!inScope) return false;
  const labels = matchableLabels(h);
  for (const [k, want] of Object.entries(rule.excludeLabels)) {
    const have = labels[k];
    if (have !== undefined && (want === "*" || have === want)) return false;
  }
  return true;
}

export function ownerNote(owner: string | null): string {
  return owner ? ` (owner ${owner})` : "";
}
