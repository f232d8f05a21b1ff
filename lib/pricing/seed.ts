import "server-only";
import { db, type Db } from "../db.ts";
import { CATALOGUE, catalogueRows } from "./catalogue.ts";
import { WITHDRAWN, type WithdrawnRow } from "./catalogue-withdrawn.ts";
import { installShippedRates } from "./rates.ts";
import type { CatalogueRow, InstallResult, PriceRow } from "./types.ts";

// The shipped catalogue is installed on every start, demo or not (lib/install/defaults.ts), so a
// real deployment prices its hosts from the first minute. A row's `origin` says whose it is:
// - "shipped": as this or an earlier release shipped it. A later release may correct it in place
//   (same provider, type, region, model and effectiveFrom) or add rows (a price change is a new
//   row with a later effectiveFrom).
// - "user": added by a person, or a shipped row a person changed. Releases never touch it.
// A retired row (retiredAt set) stays retired: it is never installed again or updated.

type Key = Pick<
  PriceRow,
  "provider" | "instanceType" | "region" | "pricingModel" | "effectiveFrom" | "site"
>;

function key(r: Key): string {
  const { provider, instanceType, region, pricingModel, effectiveFrom, site } = r;
  return [
    provider,
    instanceType,
    region,
    pricingModel,
    effectiveFrom.toISOString(),
    site ?? "",
  ].join("|");
}

const CONTENT = [
  "gpuModel",
  "gpuCount",
  "gpuMemoryBytes",
  "usdPerHourMicros",
  "currency",
  "localPerHourMicros",
  "source",
  "sourceDate",
  "note",
] as const;

function sameContent(a: PriceRow, b: PriceRow): boolean {
  return CONTENT.every((k) => (a[k] ?? null) === (b[k] ?? null));
}

/** Installs the shipped catalogue: missing rows are added, shipped rows a release corrected are
 * updated, rows a person added, changed or retired are left alone. Safe to run on every start and
 * from several replicas at once. The shipped exchange rates are installed first, by the same rules
 * (lib/pricing/rates.ts). */
export async function installShippedCatalogue(
  client: Db = db,
  catalogue: readonly CatalogueRow[] = CATALOGUE,
  withdrawn: readonly WithdrawnRow[] = WITHDRAWN,
): Promise<InstallResult & { withdrawn?: number }> {
  await installShippedRates(client);
  const rows = catalogueRows(catalogue).map(({ rates: _rates, accountSites: _sites, ...r }) => ({
    ...r,
    localPerHourMicros: r.localPerHourMicros ?? null,
    site: r.site ?? "",
  }));
  const existing = await client.priceEntry.findMany();
  const have = new Map(existing.map((r) => [key(r), r]));
  const result: InstallResult = { inserted: 0, updated: 0, kept: 0 };
  for (const r of rows) {
    const where = {
      provider_instanceType_region_pricingModel_effectiveFrom_site: {
        provider: r.provider,
        instanceType: r.instanceType,
        region: r.region,
        pricingModel: r.pricingModel,
        effectiveFrom: r.effectiveFrom,
        site: r.site,
      },
    };
    const current = have.get(key(r));
    if (!current) {
      // upsert with an empty update: another replica inserting meanwhile is a no-op, not an error
      await client.priceEntry.upsert({ where, create: { ...r, origin: "shipped" }, update: {} });
      result.inserted++;
    } else if (
      current.origin === "shipped" &&
      current.retiredAt === null &&
      !sameContent(current, r)
    ) {
      // only while still shipped: a person's change in between wins
      const done = await client.priceEntry.updateMany({
        where: { id: current.id, origin: "shipped", retiredAt: null },
        data: Object.fromEntries(CONTENT.map((k) => [k, r[k]])),
      });
      if (done.count > 0) result.updated++;
      else result.kept++;
    } else {
      result.kept++;
    }
  }
  const gone = await retireWithdrawn(client, withdrawn, new Set(rows.map(key)));
  return gone > 0 ? { ...result, withdrawn: gone } : result;
}

/** Retires the rows a release withdrew (catalogue-withdrawn.ts) while they are still as shipped;
 * a key the catalogue ships again is never retired. Returns how many it retired. */
async function retireWithdrawn(
  client: Db,
  withdrawn: readonly WithdrawnRow[],
  shipped: ReadonlySet<string>,
): Promise<number> {
  let n = 0;
  for (const w of withdrawn) {
    if (shipped.has(key(w))) continue;
    const done = await client.priceEntry.updateMany({
      where: {
        provider: w.provider,
        instanceType: w.instanceType,
        region: w.region,
        pricingModel: w.pricingModel,
        effectiveFrom: w.effectiveFrom,
        site: w.site ?? "",
        origin: "shipped",
        retiredAt: null,
      },
      data: { retiredAt: new Date(), retiredBy: w.why },
    });
    n += done.count;
  }
  return n;
}
