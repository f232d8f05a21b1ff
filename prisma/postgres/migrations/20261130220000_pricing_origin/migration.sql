-- AlterTable
ALTER TABLE "PriceEntry" ADD COLUMN     "origin" TEXT NOT NULL DEFAULT 'user',
ADD COLUMN     "retiredAt" TIMESTAMP(3),
ADD COLUMN     "retiredBy" TEXT,
ADD COLUMN     "updatedBy" TEXT;

-- Rows written by the seed before origins existed came from the shipped catalogue.
UPDATE "PriceEntry" SET "origin" = 'shipped';
