-- Issue 23: a re-pricing run stages a month's new ledger values, then swaps them in with one
-- statement, so a billed month moves from its old total to its new one at once or not at all.
-- CreateTable
CREATE TABLE "RepriceRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "month" TEXT NOT NULL,
    "by" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'staging',
    "expectedNewTotalMicros" BIGINT NOT NULL,
    "stagedRows" INTEGER NOT NULL DEFAULT 0,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME
);

-- CreateTable
CREATE TABLE "RepriceStage" (
    "runId" TEXT NOT NULL,
    "usageHourId" TEXT NOT NULL,
    "costMicros" BIGINT NOT NULL,
    "idleCostMicros" BIGINT NOT NULL,
    "priced" BOOLEAN NOT NULL,
    "currency" TEXT NOT NULL,

    PRIMARY KEY ("runId", "usageHourId"),
    CONSTRAINT "RepriceStage_runId_fkey" FOREIGN KEY ("runId") REFERENCES "RepriceRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "RepriceRun_state_updatedAt_idx" ON "RepriceRun"("state", "updatedAt");

