-- AlterTable
ALTER TABLE "PolicyEpisode" ADD COLUMN     "resizeFrom" TEXT,
ADD COLUMN     "resizeSavingMicros" BIGINT,
ADD COLUMN     "resizeTo" TEXT;

