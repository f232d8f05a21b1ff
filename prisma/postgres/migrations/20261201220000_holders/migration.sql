-- AlterTable
ALTER TABLE "GpuMinute" ADD COLUMN     "holders" TEXT;

-- CreateTable
CREATE TABLE "UsageHourHolder" (
    "id" TEXT NOT NULL,
    "hourStart" TIMESTAMP(3) NOT NULL,
    "hostId" TEXT NOT NULL,
    "gpuKey" TEXT NOT NULL,
    "holderKey" TEXT NOT NULL,
    "user" TEXT,
    "kind" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "name" TEXT,
    "namespace" TEXT,
    "account" TEXT,
    "team" TEXT NOT NULL,
    "sharePpm" INTEGER NOT NULL,
    "memByteSeconds" BIGINT NOT NULL,
    "costMicros" BIGINT NOT NULL,
    "idleSeconds" INTEGER NOT NULL,
    "idleCostMicros" BIGINT NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UsageHourHolder_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "UsageHourHolder_hourStart_idx" ON "UsageHourHolder"("hourStart");

-- CreateIndex
CREATE INDEX "UsageHourHolder_user_hourStart_idx" ON "UsageHourHolder"("user", "hourStart");

-- CreateIndex
CREATE UNIQUE INDEX "UsageHourHolder_hourStart_hostId_gpuKey_holderKey_key" ON "UsageHourHolder"("hourStart", "hostId", "gpuKey", "holderKey");

-- AddForeignKey
ALTER TABLE "UsageHourHolder" ADD CONSTRAINT "UsageHourHolder_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "Host"("id") ON DELETE CASCADE ON UPDATE CASCADE;

