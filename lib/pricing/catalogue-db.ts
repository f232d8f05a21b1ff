import "server-only";
import { db, type Db } from "../db.ts";
import { loadRates } from "./rates.ts";
import type { PriceRow } from "./types.ts";

/**
 * Loads the catalogue rows in force (retired rows price nothing) for price lookups, optionally only for some providers. The whole table is
 * small (tens to hundreds of rows), so callers load once per ledger run and look up in memory.
 * A row kept in another currency carries that currency's exchange rates, so the lookup converts
 * each hour at the rate in force then.
 */
export async function loadPriceRows(
  client: Db = db,
  filter: { providers?: readonly string[] } = {},
): Promise<PriceRow[]> {
  const [rows, rates] = await Promise.all([
    client.priceEntry.findMany({
      where: {
        retiredAt: null,
        ...(filter.providers ? { provider: { in: [...filter.providers] } } : {}),
      },
      orderBy: [{ provider: "asc" }, { instanceType: "asc" }, { effectiveFrom: "asc" }],
      select: {
        provider: true,
        instanceType: true,
        region: true,
        pricingModel: true,
        gpuModel: true,
        gpuCount: true,
        gpuMemoryBytes: true,
        usdPerHourMicros: true,
        currency: true,
        effectiveFrom: true,
        source: true,
        sourceDate: true,
        note: true,
        localPerHourMicros: true,
      },
    }),
    loadRates(client),
  ]);
  if (!rows.some((r) => r.currency !== "USD")) return rows;
  return rows.map((r) =>
    r.currency === "USD" ? r : { ...r, rates: rates.filter((x) => x.currency === r.currency) },
  );
}
