-- AlterTable
ALTER TABLE "UsageHour" ADD COLUMN     "actualSource" TEXT,
ADD COLUMN     "listCostMicros" BIGINT;

-- AlterTable
ALTER TABLE "RepriceStage" ADD COLUMN     "actualSource" TEXT,
ADD COLUMN     "listCostMicros" BIGINT;

