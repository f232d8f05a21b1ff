-- Issue 26: imported cloud bills (BillingImport) and their GPU-instance hours (BillingLine), for
-- reconciling the ledger's estimate with what was paid.
-- CreateTable
CREATE TABLE "BillingImport" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "file" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "rowsRead" INTEGER NOT NULL,
    "rowsKept" INTEGER NOT NULL,
    "skipped" TEXT NOT NULL DEFAULT '{}',
    "billedMicros" BIGINT NOT NULL,
    "effectiveMicros" BIGINT NOT NULL,
    "importedBy" TEXT NOT NULL,
    "importedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "BillingLine" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "importId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "account" TEXT NOT NULL,
    "resourceId" TEXT NOT NULL,
    "instanceKey" TEXT NOT NULL,
    "instanceType" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "hourStart" DATETIME NOT NULL,
    "chargeCategory" TEXT NOT NULL,
    "pricingModel" TEXT NOT NULL,
    "billedMicros" BIGINT NOT NULL,
    "effectiveMicros" BIGINT NOT NULL,
    "listMicros" BIGINT,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    CONSTRAINT "BillingLine_importId_fkey" FOREIGN KEY ("importId") REFERENCES "BillingImport" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "BillingImport_period_idx" ON "BillingImport"("period");

-- CreateIndex
CREATE INDEX "BillingLine_hourStart_idx" ON "BillingLine"("hourStart");

-- CreateIndex
CREATE INDEX "BillingLine_instanceKey_hourStart_idx" ON "BillingLine"("instanceKey", "hourStart");

-- CreateIndex
CREATE INDEX "BillingLine_importId_idx" ON "BillingLine"("importId");

