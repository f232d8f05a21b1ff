-- Issue 27: the ledger rolled up per UTC day, host and attribution (lib/ledger/usage-days.ts), what
-- the costs page's month view reads; filled for existing ledgers by the ledger job's first pass.
-- CreateTable
CREATE TABLE "UsageDay" (
    "day" DATETIME NOT NULL,
    "hostId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "instanceType" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "pricingModel" TEXT NOT NULL,
    "team" TEXT NOT NULL,
    "project" TEXT NOT NULL,
    "priced" BOOLEAN NOT NULL,
    "currency" TEXT NOT NULL,
    "hostHours" INTEGER NOT NULL,
    "upSeconds" INTEGER NOT NULL,
    "costMicros" BIGINT NOT NULL,
    "idleCostMicros" BIGINT NOT NULL,
    "actualHours" INTEGER NOT NULL,
    "actualCostMicros" BIGINT NOT NULL,
    "gpuSeconds" INTEGER NOT NULL,
    "firstHour" DATETIME,
    "lastHour" DATETIME,

    PRIMARY KEY ("day", "hostId", "provider", "instanceType", "region", "pricingModel", "team", "project", "priced", "currency"),
    CONSTRAINT "UsageDay_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "Host" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "UsageDay_hostId_day_idx" ON "UsageDay"("hostId", "day");

