-- Issue 26: a provider may publish two price lists (Tencent Cloud's international site in USD and
-- its China site in CNY); a row says which one ("" for a provider's only list), and the key has it.
ALTER TABLE "PriceEntry" ADD COLUMN "site" TEXT NOT NULL DEFAULT '';
DROP INDEX "PriceEntry_provider_instanceType_region_pricingModel_effectiveFrom_key";
CREATE UNIQUE INDEX "PriceEntry_provider_instanceType_region_pricingModel_effectiveFrom_site_key" ON "PriceEntry"("provider", "instanceType", "region", "pricingModel", "effectiveFrom", "site");
