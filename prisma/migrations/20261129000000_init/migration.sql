-- CreateTable
CREATE TABLE "Host" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "hostname" TEXT NOT NULL,
    "target" TEXT,
    "provider" TEXT NOT NULL DEFAULT 'unknown',
    "instanceType" TEXT NOT NULL DEFAULT 'unknown',
    "region" TEXT NOT NULL DEFAULT 'unknown',
    "pricingModel" TEXT NOT NULL DEFAULT 'on_demand',
    "team" TEXT NOT NULL DEFAULT 'unassigned',
    "project" TEXT NOT NULL DEFAULT 'unassigned',
    "owner" TEXT,
    "labels" TEXT NOT NULL DEFAULT '{}',
    "state" TEXT NOT NULL DEFAULT 'unknown',
    "lastError" TEXT,
    "firstSeen" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeen" DATETIME,
    "origin" TEXT NOT NULL DEFAULT 'settings',
    "processes" TEXT NOT NULL DEFAULT '[]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Gpu" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "hostId" TEXT NOT NULL,
    "uuid" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "memoryTotalBytes" BIGINT NOT NULL,
    "migMode" BOOLEAN NOT NULL DEFAULT false,
    "parentUuid" TEXT,
    "migProfile" TEXT,
    "gpuInstanceId" INTEGER,
    "firstSeen" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeen" DATETIME,
    CONSTRAINT "Gpu_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "Host" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PriceEntry" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "provider" TEXT NOT NULL,
    "instanceType" TEXT NOT NULL,
    "region" TEXT NOT NULL DEFAULT '*',
    "pricingModel" TEXT NOT NULL,
    "gpuModel" TEXT NOT NULL,
    "gpuCount" INTEGER NOT NULL,
    "gpuMemoryBytes" BIGINT NOT NULL,
    "usdPerHourMicros" BIGINT NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "effectiveFrom" DATETIME NOT NULL,
    "source" TEXT NOT NULL,
    "sourceDate" TEXT NOT NULL,
    "note" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "UsageHour" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "hourStart" DATETIME NOT NULL,
    "hostId" TEXT NOT NULL,
    "gpuKey" TEXT NOT NULL,
    "gpuModel" TEXT,
    "provider" TEXT NOT NULL,
    "instanceType" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "pricingModel" TEXT NOT NULL,
    "team" TEXT NOT NULL,
    "project" TEXT NOT NULL,
    "upSeconds" INTEGER NOT NULL,
    "samples" INTEGER NOT NULL,
    "utilMean" REAL,
    "utilP95" REAL,
    "memPeakBytes" BIGINT,
    "memTotalBytes" BIGINT,
    "idleSeconds" INTEGER NOT NULL,
    "idleHeldSeconds" INTEGER NOT NULL DEFAULT 0,
    "parentKey" TEXT,
    "priced" BOOLEAN NOT NULL,
    "costMicros" BIGINT NOT NULL,
    "idleCostMicros" BIGINT NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "source" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "UsageHour_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "Host" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "GpuMinute" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "minuteStart" DATETIME NOT NULL,
    "hostId" TEXT NOT NULL,
    "gpuUuid" TEXT NOT NULL,
    "samples" INTEGER NOT NULL,
    "util" REAL,
    "memUtil" REAL,
    "memUsedBytes" BIGINT,
    "memTotalBytes" BIGINT,
    "powerWatts" REAL,
    "tempCelsius" REAL,
    "smClockHz" REAL,
    "processes" INTEGER,
    CONSTRAINT "GpuMinute_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "Host" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "HostMinute" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "minuteStart" DATETIME NOT NULL,
    "hostId" TEXT NOT NULL,
    "samples" INTEGER NOT NULL,
    "upSamples" INTEGER NOT NULL,
    CONSTRAINT "HostMinute_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "Host" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Lease" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "holder" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "JobState" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "value" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Budget" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "scopeKind" TEXT NOT NULL,
    "scopeValue" TEXT NOT NULL DEFAULT '',
    "amountMicros" BIGINT NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "thresholds" TEXT NOT NULL DEFAULT '[50,80,100]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "AlertRule" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "scopeKind" TEXT NOT NULL DEFAULT 'fleet',
    "scopeValue" TEXT NOT NULL DEFAULT '',
    "params" TEXT NOT NULL DEFAULT '{}',
    "excludeLabels" TEXT NOT NULL DEFAULT '{}',
    "cooldownSeconds" INTEGER NOT NULL DEFAULT 3600,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Alert" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "ruleId" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "severity" TEXT NOT NULL DEFAULT 'warning',
    "hostId" TEXT,
    "gpuUuid" TEXT,
    "state" TEXT NOT NULL DEFAULT 'firing',
    "summary" TEXT NOT NULL,
    "details" TEXT NOT NULL DEFAULT '{}',
    "startsAt" DATETIME NOT NULL,
    "endsAt" DATETIME,
    "acknowledgedBy" TEXT,
    "acknowledgedAt" DATETIME,
    "snoozedUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Alert_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "AlertRule" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AlertEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "alertId" TEXT NOT NULL,
    "from" TEXT,
    "to" TEXT NOT NULL,
    "by" TEXT,
    "note" TEXT,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AlertEvent_alertId_fkey" FOREIGN KEY ("alertId") REFERENCES "Alert" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Channel" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "scopeKind" TEXT NOT NULL DEFAULT 'fleet',
    "scopeValue" TEXT NOT NULL DEFAULT '',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Notification" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "alertId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "transition" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastError" TEXT,
    "deliveredAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Notification_alertId_fkey" FOREIGN KEY ("alertId") REFERENCES "Alert" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Notification_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "NotificationAttempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "notificationId" TEXT NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "httpStatus" INTEGER,
    "error" TEXT,
    "durationMs" INTEGER NOT NULL,
    CONSTRAINT "NotificationAttempt_notificationId_fkey" FOREIGN KEY ("notificationId") REFERENCES "Notification" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Recommendation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "hostId" TEXT NOT NULL,
    "gpuUuid" TEXT,
    "fingerprint" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "details" TEXT NOT NULL,
    "evidence" TEXT NOT NULL DEFAULT '{}',
    "monthlySavingMicros" BIGINT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'open',
    "dismissReason" TEXT,
    "snoozedUntil" DATETIME,
    "actedBy" TEXT,
    "actedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Recommendation_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "Host" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "passwordHash" TEXT,
    "role" TEXT NOT NULL DEFAULT 'viewer',
    "teams" TEXT NOT NULL DEFAULT '[]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "Host_hostname_key" ON "Host"("hostname");

-- CreateIndex
CREATE UNIQUE INDEX "Host_target_key" ON "Host"("target");

-- CreateIndex
CREATE INDEX "Host_team_idx" ON "Host"("team");

-- CreateIndex
CREATE INDEX "Host_provider_idx" ON "Host"("provider");

-- CreateIndex
CREATE UNIQUE INDEX "Gpu_uuid_key" ON "Gpu"("uuid");

-- CreateIndex
CREATE INDEX "Gpu_hostId_idx" ON "Gpu"("hostId");

-- CreateIndex
CREATE INDEX "PriceEntry_instanceType_idx" ON "PriceEntry"("instanceType");

-- CreateIndex
CREATE UNIQUE INDEX "PriceEntry_provider_instanceType_region_pricingModel_effectiveFrom_key" ON "PriceEntry"("provider", "instanceType", "region", "pricingModel", "effectiveFrom");

-- CreateIndex
CREATE INDEX "UsageHour_hourStart_idx" ON "UsageHour"("hourStart");

-- CreateIndex
CREATE INDEX "UsageHour_hostId_hourStart_idx" ON "UsageHour"("hostId", "hourStart");

-- CreateIndex
CREATE UNIQUE INDEX "UsageHour_hourStart_hostId_gpuKey_key" ON "UsageHour"("hourStart", "hostId", "gpuKey");

-- CreateIndex
CREATE INDEX "GpuMinute_minuteStart_idx" ON "GpuMinute"("minuteStart");

-- CreateIndex
CREATE INDEX "GpuMinute_hostId_minuteStart_idx" ON "GpuMinute"("hostId", "minuteStart");

-- CreateIndex
CREATE UNIQUE INDEX "GpuMinute_gpuUuid_minuteStart_key" ON "GpuMinute"("gpuUuid", "minuteStart");

-- CreateIndex
CREATE INDEX "HostMinute_minuteStart_idx" ON "HostMinute"("minuteStart");

-- CreateIndex
CREATE UNIQUE INDEX "HostMinute_hostId_minuteStart_key" ON "HostMinute"("hostId", "minuteStart");

-- CreateIndex
CREATE UNIQUE INDEX "Budget_scopeKind_scopeValue_key" ON "Budget"("scopeKind", "scopeValue");

-- CreateIndex
CREATE INDEX "Alert_state_idx" ON "Alert"("state");

-- CreateIndex
CREATE UNIQUE INDEX "Alert_fingerprint_startsAt_key" ON "Alert"("fingerprint", "startsAt");

-- CreateIndex
CREATE INDEX "AlertEvent_alertId_idx" ON "AlertEvent"("alertId");

-- CreateIndex
CREATE INDEX "Notification_status_nextAttemptAt_idx" ON "Notification"("status", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "Notification_alertId_channelId_transition_key" ON "Notification"("alertId", "channelId", "transition");

-- CreateIndex
CREATE INDEX "NotificationAttempt_notificationId_idx" ON "NotificationAttempt"("notificationId");

-- CreateIndex
CREATE UNIQUE INDEX "Recommendation_fingerprint_key" ON "Recommendation"("fingerprint");

-- CreateIndex
CREATE INDEX "Recommendation_state_idx" ON "Recommendation"("state");

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

