-- Issue 25: accepting a right-size recommendation resizes the host through a policy's executor.
-- AlterTable
ALTER TABLE "PolicyEpisode" ADD COLUMN "resizeTo" TEXT;
ALTER TABLE "PolicyEpisode" ADD COLUMN "resizeFrom" TEXT;
ALTER TABLE "PolicyEpisode" ADD COLUMN "resizeSavingMicros" BIGINT;
