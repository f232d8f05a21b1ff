import "server-only";
import { db as defaultDb, type Db } from "../../db.ts";
import { NotFoundError } from "../../fleet/errors.ts";
import type { RuleDto, RuleList } from "../../zod/schemas/rule.ts";
import { ruleDto } from "./rule-dto.ts";

async function openCounts(client: Db): Promise<Map<string, number>> {
  const rows = await client.alert.groupBy({
    by: ["ruleId"],
    where: { state: { in: ["firing", "acknowledged"] } },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r.ruleId, r._count._all]));
}

export async function listRules(client: Db = defaultDb): Promise<RuleList> {
  const [rows, open] = await Promise.all([
    client.alertRule.findMany({ orderBy: [{ kind: "asc" }, { createdAt: "asc" }] }),
    openCounts(client),
  ]);
  return {
    rules: rows.flatMap((r) => {
      const dto = ruleDto(r, open.get(r.id) ?? 0);
      return dto ? [dto] : [];
    }),
  };
}

export async function getRule(id: string, client: Db = defaultDb): Promise<RuleDto> {
  const row = await client.alertRule.findUnique({ where: { id } });
  const dto = row ? ruleDto(row, (await openCounts(client)).get(id) ?? 0) : null;
  if (!dto) throw new NotFoundError(`rule ${id}`);
  return dto;
}
