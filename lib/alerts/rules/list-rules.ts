import "server-only";
import { hostIdsInScope, type TeamScope } from "../../auth/scope.ts";
import { db as defaultDb, type Db } from "../../db.ts";
import { NotFoundError } from "../../core/errors.ts";
import type { RuleDto, RuleList } from "../../zod/schemas/rule.ts";
import { ruleDto } from "./rule-dto.ts";

/** Open alerts per rule, counted over the scope's hosts only (a team-limited user sees no
 * fleet-wide alert and no other team's, so their counts must not include them either). */
async function openCounts(client: Db, scope: TeamScope): Promise<Map<string, number>> {
  const ids = await hostIdsInScope(client, scope);
  const rows = await client.alert.groupBy({
    by: ["ruleId"],
    where: {
      state: { in: ["firing", "acknowledged"] },
      ...(ids === null ? {} : { hostId: { in: ids } }),
    },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r.ruleId, r._count._all]));
}

/** Rules are fleet-wide; their open-alert counts are those `scope` may see. */
export async function listRules({
  scope,
  client = defaultDb,
}: {
  scope: TeamScope;
  client?: Db;
}): Promise<RuleList> {
  const [rows, open] = await Promise.all([
    client.alertRule.findMany({ orderBy: [{ kind: "asc" }, { createdAt: "asc" }] }),
    openCounts(client, scope),
  ]);
  return {
    rules: rows.flatMap((r) => {
      const dto = ruleDto(r, open.get(r.id) ?? 0);
      return dto ? [dto] : [];
    }),
  };
}

export async function getRule(
  id: string,
  { scope, client = defaultDb }: { scope: TeamScope; client?: Db },
): Promise<RuleDto> {
  const row = await client.alertRule.findUnique({ where: { id } });
  const dto = row ? ruleDto(row, (await openCounts(client, scope)).get(id) ?? 0) : null;
  if (!dto) throw new NotFoundError(`rule ${id}`);
  return dto;
}
