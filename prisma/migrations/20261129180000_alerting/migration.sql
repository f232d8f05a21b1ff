-- AlterTable
ALTER TABLE "GpuMinute" ADD COLUMN "eccCorrected" INTEGER;
ALTER TABLE "GpuMinute" ADD COLUMN "eccUncorrected" INTEGER;
ALTER TABLE "GpuMinute" ADD COLUMN "powerThrottleRatio" REAL;
ALTER TABLE "GpuMinute" ADD COLUMN "thermalThrottleRatio" REAL;

-- AlterTable
ALTER TABLE "Alert" ADD COLUMN "openKey" TEXT;
ALTER TABLE "Alert" ADD COLUMN "project" TEXT;
ALTER TABLE "Alert" ADD COLUMN "resolvedBy" TEXT;
ALTER TABLE "Alert" ADD COLUMN "team" TEXT;

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
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Channel" ("createdAt", "enabled", "id", "kind", "name", "scopeKind", "scopeValue", "updatedAt", "url") SELECT "createdAt", "enabled", "id", "kind", "name", "scopeKind", "scopeValue", "updatedAt", "url" FROM "Channel";
DROP TABLE "Channel";
ALTER TABLE "new_Channel" RENAME TO "Channel";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "Alert_openKey_key" ON "Alert"("openKey");

-- CreateIndex
CREATE INDEX "Alert_fingerprint_idx" ON "Alert"("fingerprint");

