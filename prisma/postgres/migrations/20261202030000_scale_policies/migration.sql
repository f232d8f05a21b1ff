-- AlterTable
ALTER TABLE "Policy" ADD COLUMN     "scale" TEXT;

-- CreateTable
CREATE TABLE "PolicyScaleEvent" (
    "id" TEXT NOT NULL,
    "policyId" TEXT NOT NULL,
    "pool" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "share" DOUBLE PRECISION NOT NULL,
    "hosts" INTEGER NOT NULL,
    "fromSize" INTEGER NOT NULL,
    "toSize" INTEGER NOT NULL,
    "state" TEXT NOT NULL,
    "detail" TEXT,
    "at" TIMESTAMP(3) NOT NULL,
    "claimKey" TEXT NOT NULL,

    CONSTRAINT "PolicyScaleEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "PolicyScaleEvent_claimKey_key" ON "PolicyScaleEvent"("claimKey");

-- CreateIndex
CREATE INDEX "PolicyScaleEvent_policyId_pool_at_idx" ON "PolicyScaleEvent"("policyId", "pool", "at");

-- AddForeignKey
ALTER TABLE "PolicyScaleEvent" ADD CONSTRAINT "PolicyScaleEvent_policyId_fkey" FOREIGN KEY ("policyId") REFERENCES "Policy"("id") ON DELETE CASCADE ON UPDATE CASCADE;

