import type { BudgetFigures } from "../budgets/status.ts";
import { formatMoney } from "../format/money.ts";
import { budgetParamsSchema } from "../zod/schemas/rule.ts";
import type { Condition, RuleFacts } from "./facts.ts";

// Budget alerts: one per budget, month and basis (actual / forecast). The level is the highest
// threshold reached; crossing a higher one escalates the same alert and notifies again.

export interface BudgetSubject {
  id: string;
  name: string;
  scopeKind: string;
  scopeValue: string;
  amountMicros: bigint;
  currency: string;
  figures: BudgetFigures;
  /** owners of the hosts in the budget's scope, named in the message */
  owners: string[];
}

function pct(n: number | null): string {
  return n === null ? "—" : `${n.toFixed(1)} %`;
}

function inRuleScope(rule: RuleFacts, b: BudgetSubject): boolean {
  if (rule.scopeKind === "fleet") return true;
  return b.scopeKind === rule.scopeKind && b.scopeValue === rule.scopeValue;
}

export function evaluateBudgets(rule: RuleFacts, budgets: readonly BudgetSubject[]): Condition[] {
  const { basis } = budgetParamsSchema.parse(rule.params);
  const out: Condition[] = [];
  for (const b of budgets) {
    if (!inRuleScope(rule, b)) continue;
    const f = b.figures;
    const money = (v: bigint) => formatMoney(v, b.currency);
    const idlePct = f.spendMicros > 0n ? Number((f.idleMicros * 1000n) / f.spendMicros) / 10 : 0;
    const idle = `idle GPUs cost ${money(f.idleMicros)} (${idlePct.toFixed(1)} % of spend)`;
    const forecast =
      f.forecastMicros === null
        ? "no forecast yet (needs 3 days of data)"
        : `forecast ${money(f.forecastMicros)} (${pct(f.pctForecast)})`;
    const owners = b.owners.length > 0 ? ` (owners ${b.owners.join(", ")})` : "";
    const scope = b.scopeKind === "fleet" ? "fleet" : `${b.scopeKind} ${b.scopeValue}`;
    for (const which of basis) {
      const level = which === "actual" ? f.crossedActual : f.crossedForecast;
      if (level === null) continue;
      const summary =
        which === "actual"
          ? `Budget “${b.name}” (${scope}) at ${pct(f.pctActual)}: ${money(f.spendMicros)} of ${money(b.amountMicros)} spent in ${f.month}, past the ${level} % threshold; ${forecast}; ${idle}${owners}`
          : `Budget “${b.name}” (${scope}) forecast at ${pct(f.pctForecast)} of ${money(b.amountMicros)} for ${f.month}, past the ${level} % threshold; spent ${money(f.spendMicros)} (${pct(f.pctActual)}) so far; ${idle}${owners}`;
      out.push({
        fingerprint: `${rule.id}:budget:${b.id}:${f.month}:${which}`,
        severity: level >= 100 ? "critical" : "warning",
        hostId: null,
        gpuUuid: null,
        team: b.scopeKind === "team" ? b.scopeValue : null,
        project: b.scopeKind === "project" ? b.scopeValue : null,
        summary,
        level,
        details: {
          budgetId: b.id,
          budgetName: b.name,
          basis: which,
          month: f.month,
          threshold: level,
          amountMicros: b.amountMicros.toString(),
          spendMicros: f.spendMicros.toString(),
          pctActual: f.pctActual,
          forecastMicros: f.forecastMicros === null ? null : f.forecastMicros.toString(),
          pctForecast: f.pctForecast,
          idleMicros: f.idleMicros.toString(),
          idlePct,
          currency: b.currency,
          owners: b.owners,
          scopeKind: b.scopeKind,
          scopeValue: b.scopeValue,
        },
      });
    }
  }
  return out;
}
