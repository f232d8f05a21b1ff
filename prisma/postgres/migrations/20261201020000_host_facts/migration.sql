-- AlterTable
ALTER TABLE "Host" ADD COLUMN     "instanceId" TEXT,
ADD COLUMN     "interruptionAt" TIMESTAMP(3),
ADD COLUMN     "interruptionPending" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "zone" TEXT;

-- AlterTable
ALTER TABLE "Gpu" ADD COLUMN     "vgpuLicensed" BOOLEAN,
ADD COLUMN     "virtualizationMode" TEXT;

-- AlterTable
ALTER TABLE "GpuMinute" ADD COLUMN     "smActive" DOUBLE PRECISION,
ADD COLUMN     "tensorActive" DOUBLE PRECISION;

