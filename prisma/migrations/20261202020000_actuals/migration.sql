-- Issue 26: a ledger hour re-priced from the imported bill keeps its list estimate beside the
-- actual (costMicros becomes the billed effective cost; listCostMicros keeps the estimate).
-- AlterTable
ALTER TABLE "UsageHour" ADD COLUMN "actualSource" TEXT;
ALTER TABLE "UsageHour" ADD COLUMN "listCostMicros" BIGINT;

-- AlterTable
ALTER TABLE "RepriceStage" ADD COLUMN "actualSource" TEXT;
ALTER TABLE "RepriceStage" ADD COLUMN "listCostMicros" BIGINT;
