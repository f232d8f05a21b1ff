-- AlterTable
ALTER TABLE "PriceEntry" ADD COLUMN     "localPerHourMicros" BIGINT;

-- CreateTable
CREATE TABLE "ExchangeRate" (
    "id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "usdPerUnit" TEXT NOT NULL,
    "effectiveFrom" TIMESTAMP(3) NOT NULL,
    "source" TEXT NOT NULL,
    "sourceDate" TEXT NOT NULL,
    "origin" TEXT NOT NULL DEFAULT 'user',
    "updatedBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ExchangeRate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BenchmarkResult" (
    "id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "instanceType" TEXT NOT NULL,
    "workload" TEXT NOT NULL,
    "unit" TEXT NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "source" TEXT NOT NULL,
    "sourceDate" TEXT NOT NULL,
    "note" TEXT,
    "origin" TEXT NOT NULL DEFAULT 'user',
    "updatedBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BenchmarkResult_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ExchangeRate_currency_effectiveFrom_key" ON "ExchangeRate"("currency", "effectiveFrom");

-- CreateIndex
CREATE INDEX "BenchmarkResult_instanceType_idx" ON "BenchmarkResult"("instanceType");

-- CreateIndex
CREATE UNIQUE INDEX "BenchmarkResult_provider_instanceType_workload_unit_source_key" ON "BenchmarkResult"("provider", "instanceType", "workload", "unit", "source");
