import "server-only";
import { db, type Db } from "../db.ts";
import { getSettingFrom } from "../settings/app-settings.ts";
import { loadRates } from "./rates.ts";
import { loadSpotHistory } from "./spot-history-db.ts";
import type { PriceRow } from "./types.ts";

/**
 * Loads the catalogue rows in force (retired rows price nothing) for price lookups, optionally only for some providers. The whole table is
 * small (tens to hundreds of rows), so callers load once per ledger run and look up in memory.
 * AWS rows carry their instance type's imported spot price history (SpotPrice).
 * A row kept in another currency carries that currency's exchange rates, so the lookup converts
 * each hour at the rate in force then. A row of one of a provider's two sites (Tencent) carries
 * which accounts buy from which site (the setting), so the lookup picks the host's account's list.
 */
export async function loadPriceRows(
  client: Db = db,
  filter: { providers?: readonly string[] } = {},
): Promise<PriceRow[]> {
  const [rows, rates, chinaAccounts, spot] = await Promise.all([
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
    filter.providers && !filter.providers.some((p) => p.toLowerCase() === "aws")
      ? new Map<string, never>()
      : loadSpotHistory(client),
  ]);
  const accountSites: Record<string, string> = Object.fromEntries(
    chinaAccounts.map((a) => [a, "china"]),
  );
  return rows.map((r) => {
    // the setting names Tencent accounts: another provider's sited rows get no account's site
    const sites = r.provider.toLowerCase() === "tencent" ? accountSites : {};
    const sited = r.site === "" ? r : { ...r, accountSites: sites };
    // an AWS row carries its type's spot price history (the lookup prices spot hours from it)
    const history =
      r.provider.toLowerCase() === "aws" ? spot.get(r.instanceType.toLowerCase()) : undefined;
    const withSites = history ? { ...sited, spotHistory: history } : sited;
    return r.currency === "USD"
      ? withSites
      : { ...withSites, rates: rates.filter((x) => x.currency === r.currency) };
  });
}
