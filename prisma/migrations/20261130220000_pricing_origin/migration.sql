-- Pricing catalogue rows know where they came from (shipped with a release, or a person's), who
-- last changed them, and whether they were retired.
ALTER TABLE "PriceEntry" ADD COLUMN "origin" TEXT NOT NULL DEFAULT 'user';
ALTER TABLE "PriceEntry" ADD COLUMN "updatedBy" TEXT;
ALTER TABLE "PriceEntry" ADD COLUMN "retiredAt" DATETIME;
ALTER TABLE "PriceEntry" ADD COLUMN "retiredBy" TEXT;
-- Rows written by the seed before origins existed came from the shipped catalogue.
UPDATE "PriceEntry" SET "origin" = 'shipped';
