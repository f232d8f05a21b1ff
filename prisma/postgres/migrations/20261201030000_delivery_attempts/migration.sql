-- AlterTable
ALTER TABLE "Alert" ADD COLUMN     "clearSince" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "NotificationAttempt" ADD COLUMN     "finishedAt" TIMESTAMP(3);


-- Rows from before were written complete.
UPDATE "NotificationAttempt" SET "finishedAt" = "at";
