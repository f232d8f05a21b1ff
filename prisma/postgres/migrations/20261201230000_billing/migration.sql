-- CreateTable
CREATE TABLE "BillingImport" (
    "id" TEXT NOT NULL,
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
    "importedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BillingImport_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BillingLine" (
    "id" TEXT NOT NULL,
    "importId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "account" TEXT NOT NULL,
    "resourceId" TEXT NOT NULL,
    "instanceKey" TEXT NOT NULL,
    "instanceType" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "hourStart" TIMESTAMP(3) NOT NULL,
    "chargeCategory" TEXT NOT NULL,
    "pricingModel" TEXT NOT NULL,
    "billedMicros" BIGINT NOT NULL,
    "effectiveMicros" BIGINT NOT NULL,
    "listMicros" BIGINT,
    "currency" TEXT NOT NULL DEFAULT 'USD',

    CONSTRAINT "BillingLine_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "BillingImport_period_idx" ON "BillingImport"("period");

-- CreateIndex
CREATE INDEX "BillingLine_hourStart_idx" ON "BillingLine"("hourStart");

-- CreateIndex
CREATE INDEX "BillingLine_instanceKey_hourStart_idx" ON "BillingLine"("instanceKey", "hourStart");

-- CreateIndex
CREATE INDEX "BillingLine_importId_idx" ON "BillingLine"("importId");

-- AddForeignKey
ALTER TABLE "BillingLine" ADD CONSTRAINT "BillingLine_importId_fkey" FOREIGN KEY ("importId") REFERENCES "BillingImport"("id") ON DELETE CASCADE ON UPDATE CASCADE;

