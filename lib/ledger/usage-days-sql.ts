import "server-only";
import type { Db } from "../db.ts";
import { DAY_MS } from "../core/time.ts";
import { dayOf } from "./usage-days.ts";
import { placeholder, stamp as stampOf, type Dialect } from "./reprice-sql-ctes.ts";

// The day roll-up (usage-days.ts) of some hosts recomputed in two statements, for the re-pricing
// swap of a large fleet's month (issue 27): through the client it read the month a day and a
// query at a time (12 s for 278 hosts at 10,000 GPUs). The same sums as computeDay, grouped by
// the same key: host rows' hours, up seconds, costs and first/last hour, their hours on actuals,
// and whole GPUs' up seconds (MIG slices, "<gpu>:gi<n>", left out); a key appears when it has a
// host row or a whole-GPU row that day. reprice-sql.test.ts compares it with computeDay's.

const KEY = `"hostId", "provider", "instanceType", "region", "pricingModel", "team", "project",
  "priced", "currency"`;
const HOST = `"gpuKey" = 'host'`;
const GPU = `"gpuKey" <> 'host' AND "gpuKey" NOT LIKE '%:gi%'`;

/**
 * Recomputes the roll-up of `hostIds` over the UTC days that [from, to) touches, from the ledger,
 * in `tx` (the transaction that changed those ledger rows).
 */
export async function refreshHostDaysSql(
  tx: Pick<Db, "$executeRawUnsafe">,
  dialect: Dialect,
  range: { from: Date; to: Date; hostIds: readonly string[] },
): Promise<void> {
  if (range.hostIds.length === 0) return;
  const pg = dialect === "postgres";
  const ph = (n: number) => placeholder(dialect, n);
  const stamp = (d: Date) => stampOf(d, dialect);
  const ts = (n: number) => (pg ? `${ph(n)}::timestamp` : ph(n));
  const ids = (n: number) =>
    pg
      ? `(SELECT jsonb_array_elements_text(${ph(n)}::jsonb))`
      : `(SELECT value FROM json_each(${ph(n)}))`;
  const day = pg
    ? `date_trunc('day', "hourStart")`
    : `substr("hourStart", 1, 10) || 'T00:00:00.000+00:00'`;
  // whole UTC days, as refreshUsageDays takes them
  const from = dayOf(range.from);
  const to = new Date(dayOf(new Date(range.to.getTime() - 1)).getTime() + DAY_MS);
  const values = [stamp(from), stamp(to), JSON.stringify(range.hostIds)];
  await tx.$executeRawUnsafe(
    `DELETE FROM "UsageDay" WHERE "day" >= ${ts(1)} AND "day" < ${ts(2)} AND "hostId" IN ${ids(3)}`,
    ...values,
  );
  const sum = (when: string, what: string) => `SUM(CASE WHEN ${when} THEN ${what} ELSE 0 END)`;
  await tx.$executeRawUnsafe(
    `INSERT INTO "UsageDay" ("day", ${KEY}, "hostHours", "upSeconds", "costMicros",
  "idleCostMicros", "actualHours", "actualCostMicros", "gpuSeconds", "firstHour", "lastHour")
SELECT ${day}, ${KEY}, ${sum(HOST, "1")}, ${sum(HOST, `"upSeconds"`)},
  ${sum(HOST, `"costMicros"`)}, ${sum(HOST, `"idleCostMicros"`)},
  ${sum(`${HOST} AND "actualSource" IS NOT NULL`, "1")},
  ${sum(`${HOST} AND "actualSource" IS NOT NULL`, `"costMicros"`)},
  ${sum(GPU, `"upSeconds"`)},
  MIN(CASE WHEN ${HOST} THEN "hourStart" END), MAX(CASE WHEN ${HOST} THEN "hourStart" END)
FROM "UsageHour"
WHERE "hourStart" >= ${ts(1)} AND "hourStart" < ${ts(2)} AND "hostId" IN ${ids(3)}
GROUP BY ${day}, ${KEY}
HAVING ${sum(HOST, "1")} + ${sum(GPU, "1")} > 0`,
    ...values,
  );
}
