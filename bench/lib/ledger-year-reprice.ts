// EXPLAIN (ANALYZE, BUFFERS) of the set-based re-pricing's main statement (the preview's tally of
// the month, lib/ledger/reprice-sql.ts) for `npm run bench:ledger-year`, with the prices the app would use.
import pg from "pg";
import { monthBounds } from "../../lib/core/months.ts";
import type { Db } from "../../lib/db.ts";
import { monthGroups, priceTable } from "../../lib/ledger/reprice-prices.ts";
import { tallyStatement } from "../../lib/ledger/reprice-sql.ts";
import { hostLabels } from "../../lib/ledger/reprice-store.ts";
import { loadPriceRows } from "../../lib/pricing/catalogue-db.ts";

export async function explainReprice(db: Db, url: string, month: string): Promise<void> {
  const bounds = monthBounds(month);
  const table = priceTable(
    await monthGroups(db, bounds, false),
    await loadPriceRows(db),
    await hostLabels(db),
    bounds,
  );
  const { sql, values } = tallyStatement("postgres", table, bounds, true);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, values);
    console.log(`\n-- re-pricing's tally of ${month}`);
    for (const row of r.rows) console.log(row["QUERY PLAN"]);
  } finally {
    await c.end();
  }
}
