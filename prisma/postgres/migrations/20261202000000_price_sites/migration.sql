-- DropIndex
DROP INDEX "PriceEntry_provider_instanceType_region_pricingModel_effect_key";

-- AlterTable
ALTER TABLE "PriceEntry" ADD COLUMN     "site" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE UNIQUE INDEX "PriceEntry_provider_instanceType_region_pricingModel_effect_key" ON "PriceEntry"("provider", "instanceType", "region", "pricingModel", "effectiveFrom", "site");

