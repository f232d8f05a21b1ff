import "server-only";
import { db, type Db } from "../db.ts";
import { getSettingFrom } from "../settings/app-settings.ts";
import { loadRates } from "./rates.ts";
import type { PriceRow } from "./types.ts";

/**
 * Loads the catalogue rows in force (retired rows price nothing) for price lookups, optionally only for some providers. The whole table is
 * small (tens to hundreds of rows), so callers load once per ledger run and look up in memory.
 * A row kept in another currency carries that currency's exchange rates, so the lookup converts
 * each hour at the rate in force then. A row of one of a provider's two sites (Tencent) carries
 * which accounts buy from which site (the setting), so the lookup picks the host's account's list.
 */
export async function loadPriceRows(
  client: Db = db,
  filter: { providers?: readonly string[] } = {},
): Promise<PriceRow[]> {
  const [rows, rates, chinaAccounts] = await Promise.all([
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
        site: true,
      },
    }),
    loadRates(client),
    getSettingFrom(client, "tencentChinaSiteAccounts"),
  ]);
  const accountSites: Record<string, string> = Object.fromEntries(
    chinaAccounts.map((a) => [a, "china"]),
  );
  return rows.map((r) => {
    // the setting names Tencent accounts: another provider's sited rows get no account's site
    const sites = r.provider.toLowerCase() === "tencent" ? accountSites : {};
    const withSites = r.site === "" ? r : { ...r, accountSites: sites };
    return r.currency === "USD"
      ? withSites
      : { ...withSites, rates: rates.filter((x) => x.currency === r.currency) };
  });
}
