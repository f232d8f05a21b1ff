-- CreateTable
CREATE TABLE "UsageDay" (
    "day" TIMESTAMP(3) NOT NULL,
    "hostId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "instanceType" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "pricingModel" TEXT NOT NULL,
    "team" TEXT NOT NULL,
    "project" TEXT NOT NULL,
    "priced" BOOLEAN NOT NULL,
    "currency" TEXT NOT NULL,
    "hostHours" INTEGER NOT NULL,
    "upSeconds" INTEGER NOT NULL,
    "costMicros" BIGINT NOT NULL,
    "idleCostMicros" BIGINT NOT NULL,
    "actualHours" INTEGER NOT NULL,
    "actualCostMicros" BIGINT NOT NULL,
    "gpuSeconds" INTEGER NOT NULL,
    "firstHour" TIMESTAMP(3),
    "lastHour" TIMESTAMP(3),

    CONSTRAINT "UsageDay_pkey" PRIMARY KEY ("day","hostId","provider","instanceType","region","pricingModel","team","project","priced","currency")
);

-- CreateIndex
CREATE INDEX "UsageDay_hostId_day_idx" ON "UsageDay"("hostId", "day");

-- AddForeignKey
ALTER TABLE "UsageDay" ADD CONSTRAINT "UsageDay_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "Host"("id") ON DELETE CASCADE ON UPDATE CASCADE;

