-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Channel" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "scopeKind" TEXT NOT NULL DEFAULT 'fleet',
    "scopeValue" TEXT NOT NULL DEFAULT '',
    "kinds" TEXT NOT NULL DEFAULT '[]',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "config" TEXT NOT NULL DEFAULT '{}'
);
INSERT INTO "new_Channel" ("createdAt", "enabled", "id", "kind", "kinds", "name", "scopeKind", "scopeValue", "updatedAt", "url") SELECT "createdAt", "enabled", "id", "kind", "kinds", "name", "scopeKind", "scopeValue", "updatedAt", "url" FROM "Channel";
DROP TABLE "Channel";
ALTER TABLE "new_Channel" RENAME TO "Channel";
CREATE TABLE "new_Notification" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "alertId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "transition" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastError" TEXT,
    "deliveredAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "recipient" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "Notification_alertId_fkey" FOREIGN KEY ("alertId") REFERENCES "Alert" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Notification_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Notification" ("alertId", "attempts", "channelId", "createdAt", "deliveredAt", "id", "lastError", "nextAttemptAt", "status", "transition") SELECT "alertId", "attempts", "channelId", "createdAt", "deliveredAt", "id", "lastError", "nextAttemptAt", "status", "transition" FROM "Notification";
DROP TABLE "Notification";
ALTER TABLE "new_Notification" RENAME TO "Notification";
CREATE INDEX "Notification_status_nextAttemptAt_idx" ON "Notification"("status", "nextAttemptAt");
CREATE UNIQUE INDEX "Notification_alertId_channelId_transition_recipient_key" ON "Notification"("alertId", "channelId", "transition", "recipient");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

