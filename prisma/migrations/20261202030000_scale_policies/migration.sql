-- Issue 25: scale-out / scale-in policies (a policy's scale settings) and their signals per pool.
-- AlterTable
ALTER TABLE "Policy" ADD COLUMN "scale" TEXT;

-- CreateTable
CREATE TABLE "PolicyScaleEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "policyId" TEXT NOT NULL,
    "pool" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "share" REAL NOT NULL,
    "hosts" INTEGER NOT NULL,
    "fromSize" INTEGER NOT NULL,
    "toSize" INTEGER NOT NULL,
    "state" TEXT NOT NULL,
    "detail" TEXT,
    "at" DATETIME NOT NULL,
    "claimKey" TEXT NOT NULL,
    CONSTRAINT "PolicyScaleEvent_policyId_fkey" FOREIGN KEY ("policyId") REFERENCES "Policy" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "PolicyScaleEvent_claimKey_key" ON "PolicyScaleEvent"("claimKey");

-- CreateIndex
CREATE INDEX "PolicyScaleEvent_policyId_pool_at_idx" ON "PolicyScaleEvent"("policyId", "pool", "at");
