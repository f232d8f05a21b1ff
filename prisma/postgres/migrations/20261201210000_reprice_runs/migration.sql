-- CreateTable
CREATE TABLE "RepriceRun" (
    "id" TEXT NOT NULL,
    "month" TEXT NOT NULL,
    "by" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'staging',
    "expectedNewTotalMicros" BIGINT NOT NULL,
    "stagedRows" INTEGER NOT NULL DEFAULT 0,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "RepriceRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RepriceStage" (
    "runId" TEXT NOT NULL,
    "usageHourId" TEXT NOT NULL,
    "costMicros" BIGINT NOT NULL,
    "idleCostMicros" BIGINT NOT NULL,
    "priced" BOOLEAN NOT NULL,
    "currency" TEXT NOT NULL,

    CONSTRAINT "RepriceStage_pkey" PRIMARY KEY ("runId","usageHourId")
);

-- CreateIndex
CREATE INDEX "RepriceRun_state_updatedAt_idx" ON "RepriceRun"("state", "updatedAt");

-- AddForeignKey
ALTER TABLE "RepriceStage" ADD CONSTRAINT "RepriceStage_runId_fkey" FOREIGN KEY ("runId") REFERENCES "RepriceRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

