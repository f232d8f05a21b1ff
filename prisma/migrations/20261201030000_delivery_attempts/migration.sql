-- A delivery attempt is written when it starts and completed with its outcome, so a process killed
-- mid-send leaves a visible "started, no outcome" row. Rows from before were written complete.
ALTER TABLE "NotificationAttempt" ADD COLUMN "finishedAt" DATETIME;
UPDATE "NotificationAttempt" SET "finishedAt" = "at";
-- An open alert whose condition cleared waits out the resolve hold before it is resolved.
ALTER TABLE "Alert" ADD COLUMN "clearSince" DATETIME;
