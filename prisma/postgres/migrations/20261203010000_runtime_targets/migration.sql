-- AlterTable
ALTER TABLE "Policy" ADD COLUMN     "target" TEXT NOT NULL DEFAULT 'host';

-- AlterTable
ALTER TABLE "PolicyEpisode" ADD COLUMN     "holder" TEXT,
ADD COLUMN     "holderGpus" DOUBLE PRECISION,
ADD COLUMN     "holderKind" TEXT,
ADD COLUMN     "lastSeenAt" TIMESTAMP(3);

