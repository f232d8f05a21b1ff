-- Issue 25: a scale call that failed in a way worth retrying is tried again with backoff.
-- AlterTable
ALTER TABLE "PolicyScaleEvent" ADD COLUMN "attempts" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "PolicyScaleEvent" ADD COLUMN "nextAttemptAt" DATETIME;
