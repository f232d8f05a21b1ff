-- Issue 16: what the exporter knows of its host (zone, cloud instance id, spot reclaim notices),
-- of its GPUs (virtualization mode, vGPU licence) and DCGM profiling (SM and tensor active).
ALTER TABLE "Host" ADD COLUMN "zone" TEXT;
ALTER TABLE "Host" ADD COLUMN "instanceId" TEXT;
ALTER TABLE "Host" ADD COLUMN "interruptionPending" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Host" ADD COLUMN "interruptionAt" DATETIME;
ALTER TABLE "Gpu" ADD COLUMN "virtualizationMode" TEXT;
ALTER TABLE "Gpu" ADD COLUMN "vgpuLicensed" BOOLEAN;
ALTER TABLE "GpuMinute" ADD COLUMN "smActive" REAL;
ALTER TABLE "GpuMinute" ADD COLUMN "tensorActive" REAL;
