import "server-only";
import type { Db } from "../../db.ts";
import { isUniqueViolation } from "../../core/store-errors.ts";
import { ruleInputSchema, type RuleInput } from "../../zod/schemas/rule.ts";
import { ruleRow } from "./save-rule.ts";

/** The alert rules every install starts with, demo or not, each with its default parameters. */
export const DEFAULT_RULES: readonly RuleInput[] = [
  { name: "Idle GPUs", kind: "idle", params: {} },
  { name: "Budgets", kind: "budget", params: {} },
  { name: "Exporter not reporting", kind: "exporter_down", params: {} },
  { name: "GPU stopped reporting", kind: "gpu_missing", params: {} },
  { name: "Uncorrected ECC errors", kind: "ecc", params: {} },
  { name: "GPU too hot", kind: "temperature", params: {} },
  { name: "Sustained throttling", kind: "throttle", params: {} },
  { name: "Spot reclaim announced", kind: "spot_interruption", params: {} },
  { name: "Metrics backend down", kind: "metrics_backend_down", params: {} },
].map((r) => ruleInputSchema.parse(r));

/** JobState row that records that the default rules were offered to this store once. */
export const DEFAULT_RULES_MARK = "install.defaultRules";

/**
 * Installs the default rules once per store: on a store with no rule yet, and never again after
 * (an admin who deletes them keeps them deleted). The JobState row is claimed first, so two
 * replicas starting together install them once. Returns how many rules were created.
 */
export async function installDefaultRules(db: Db): Promise<number> {
  const mark = await db.jobState.findUnique({ where: { name: DEFAULT_RULES_MARK } });
  if (mark) return installAddedDefaults(db);
  try {
    await db.jobState.create({
      data: { name: DEFAULT_RULES_MARK, value: new Date().toISOString() },
    });
  } catch (e) {
    if (isUniqueViolation(e)) return 0; // another replica claimed it first
    throw e;
  }
  try {
    if ((await db.alertRule.count()) > 0) return 0;
    await db.alertRule.createMany({ data: DEFAULT_RULES.map(ruleRow) });
  } catch (e) {
    // not installed after all: the next start tries again
    await db.jobState.deleteMany({ where: { name: DEFAULT_RULES_MARK } });
    throw e;
  }
  return DEFAULT_RULES.length;
}

/** Default kinds added after stores already existed: each is offered once to such a store. */
export const ADDED_DEFAULT_KINDS = ["metrics_backend_down"] as const;

/**
 * On a store whose defaults were installed before a kind in ADDED_DEFAULT_KINDS existed: adds
 * that kind's default rule once (claimed by its own JobState row, as above), unless a rule of
 * the kind is already there. Deleting it afterwards keeps it deleted. Returns how many it added.
 */
async function installAddedDefaults(db: Db): Promise<number> {
  let n = 0;
  for (const kind of ADDED_DEFAULT_KINDS) {
    const name = `${DEFAULT_RULES_MARK}.${kind}`;
    if (await db.jobState.findUnique({ where: { name } })) continue;
    try {
      await db.jobState.create({ data: { name, value: new Date().toISOString() } });
    } catch (e) {
      if (isUniqueViolation(e)) continue;
      throw e;
    }
    const rule = DEFAULT_RULES.find((r) => r.kind === kind);
    if (!rule || (await db.alertRule.count({ where: { kind } })) > 0) continue;
    await db.alertRule.create({ data: ruleRow(rule) });
    n++;
  }
  return n;
}
