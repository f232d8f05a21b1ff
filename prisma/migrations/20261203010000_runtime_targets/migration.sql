-- Issue 25: maximum run time per Slurm job and per Kubernetes pod, not only per host.
-- AlterTable
ALTER TABLE "Policy" ADD COLUMN "target" TEXT NOT NULL DEFAULT 'host';
ALTER TABLE "PolicyEpisode" ADD COLUMN "holderKind" TEXT;
ALTER TABLE "PolicyEpisode" ADD COLUMN "holder" TEXT;
ALTER TABLE "PolicyEpisode" ADD COLUMN "holderGpus" REAL;
ALTER TABLE "PolicyEpisode" ADD COLUMN "lastSeenAt" DATETIME;
