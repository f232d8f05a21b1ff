-- Issue 15: prices kept in their own currency (CNY) with dated exchange rates, and benchmark
-- results per instance type for cost per unit of work.
ALTER TABLE "PriceEntry" ADD COLUMN "localPerHourMicros" BIGINT;

CREATE TABLE "ExchangeRate" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "currency" TEXT NOT NULL,
    "usdPerUnit" TEXT NOT NULL,
    "effectiveFrom" DATETIME NOT NULL,
    "source" TEXT NOT NULL,
    "sourceDate" TEXT NOT NULL,
    "origin" TEXT NOT NULL DEFAULT 'user',
    "updatedBy" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
CREATE UNIQUE INDEX "ExchangeRate_currency_effectiveFrom_key" ON "ExchangeRate"("currency", "effectiveFrom");

CREATE TABLE "BenchmarkResult" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "provider" TEXT NOT NULL,
    "instanceType" TEXT NOT NULL,
    "workload" TEXT NOT NULL,
    "unit" TEXT NOT NULL,
    "value" REAL NOT NULL,
    "source" TEXT NOT NULL,
    "sourceDate" TEXT NOT NULL,
    "note" TEXT,
    "origin" TEXT NOT NULL DEFAULT 'user',
    "updatedBy" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
CREATE INDEX "BenchmarkResult_instanceType_idx" ON "BenchmarkResult"("instanceType");
CREATE UNIQUE INDEX "BenchmarkResult_provider_instanceType_workload_unit_source_key" ON "BenchmarkResult"("provider", "instanceType", "workload", "unit", "source");
