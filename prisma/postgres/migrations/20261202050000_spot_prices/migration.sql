-- CreateTable
CREATE TABLE "SpotPrice" (
    "id" TEXT NOT NULL,
    "provider" TEXT NOT NULL DEFAULT 'aws',
    "instanceType" TEXT NOT NULL,
    "zone" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "usdPerHourMicros" BIGINT NOT NULL,
    "source" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SpotPrice_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SpotPrice_provider_instanceType_region_at_idx" ON "SpotPrice"("provider", "instanceType", "region", "at");

-- CreateIndex
CREATE UNIQUE INDEX "SpotPrice_provider_instanceType_zone_at_key" ON "SpotPrice"("provider", "instanceType", "zone", "at");

