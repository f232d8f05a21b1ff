import "server-only";
import { db, type Db } from "../db.ts";
import { CATALOGUE, catalogueRows } from "./catalogue.ts";
import type { CatalogueRow, PriceRow } from "./types.ts";

export interface SeedResult {
  inserted: number;
  skipped: number;
}

function key(
  r: Pick<PriceRow, "provider" | "instanceType" | "region" | "pricingModel" | "effectiveFrom">,
): string {
  return [r.provider, r.instanceType, r.region, r.pricingModel, r.effectiveFrom.toISOString()].join(
    "|",
  );
}

/**
 * Inserts catalogue rows whose key (provider, type, region, model, effectiveFrom) is missing.
 * Existing rows are never updated, so a price a user corrected survives every restart; a row the
 * user deleted does come back, so "remove a price" should be done by adding a newer row instead.
 */
export async function seedCatalogue(
  client: Db = db,
  catalogue: readonly CatalogueRow[] = CATALOGUE,
): Promise<SeedResult> {
  const rows = catalogueRows(catalogue);
  const existing = await client.priceEntry.findMany({
    select: {
      provider: true,
      instanceType: true,
      region: true,
      pricingModel: true,
      effectiveFrom: true,
    },
  });
  const have = new Set(existing.map(key));
  const missing = rows.filter((r) => !have.has(key(r)));
  // upsert with an empty update: if another replica inserted the row meanwhile, this is a no-op
  // instead of a unique-constraint error.
  await client.$transaction(
    missing.map((r) =>
      client.priceEntry.upsert({
        where: {
          provider_instanceType_region_pricingModel_effectiveFrom: {
            provider: r.provider,
            instanceType: r.instanceType,
            region: r.region,
            pricingModel: r.pricingModel,
            effectiveFrom: r.effectiveFrom,
          },
        },
        create: r,
        update: {},
      }),
    ),
  );
  return { inserted: missing.length, skipped: rows.length - missing.length };
}
