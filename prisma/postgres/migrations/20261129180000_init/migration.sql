-- CreateTable
CREATE TABLE "Host" (
    "id" TEXT NOT NULL,
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
    "firstSeen" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeen" TIMESTAMP(3),
    "origin" TEXT NOT NULL DEFAULT 'settings',
    "processes" TEXT NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Host_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Gpu" (
    "id" TEXT NOT NULL,
    "hostId" TEXT NOT NULL,
    "uuid" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "memoryTotalBytes" BIGINT NOT NULL,
    "migMode" BOOLEAN NOT NULL DEFAULT false,
    "parentUuid" TEXT,
    "migProfile" TEXT,
    "gpuInstanceId" INTEGER,
    "firstSeen" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeen" TIMESTAMP(3),

    CONSTRAINT "Gpu_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PriceEntry" (
    "id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "instanceType" TEXT NOT NULL,
    "region" TEXT NOT NULL DEFAULT '*',
    "pricingModel" TEXT NOT NULL,
    "gpuModel" TEXT NOT NULL,
    "gpuCount" INTEGER NOT NULL,
    "gpuMemoryBytes" BIGINT NOT NULL,
    "usdPerHourMicros" BIGINT NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "effectiveFrom" TIMESTAMP(3) NOT NULL,
    "source" TEXT NOT NULL,
    "sourceDate" TEXT NOT NULL,
    "note" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PriceEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UsageHour" (
    "id" TEXT NOT NULL,
    "hourStart" TIMESTAMP(3) NOT NULL,
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
    "utilMean" DOUBLE PRECISION,
    "utilP95" DOUBLE PRECISION,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UsageHour_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GpuMinute" (
    "id" TEXT NOT NULL,
    "minuteStart" TIMESTAMP(3) NOT NULL,
    "hostId" TEXT NOT NULL,
    "gpuUuid" TEXT NOT NULL,
    "samples" INTEGER NOT NULL,
    "util" DOUBLE PRECISION,
    "memUtil" DOUBLE PRECISION,
    "memUsedBytes" BIGINT,
    "memTotalBytes" BIGINT,
    "powerWatts" DOUBLE PRECISION,
    "tempCelsius" DOUBLE PRECISION,
    "smClockHz" DOUBLE PRECISION,
    "processes" INTEGER,
    "eccCorrected" INTEGER,
    "eccUncorrected" INTEGER,
    "thermalThrottleRatio" DOUBLE PRECISION,
    "powerThrottleRatio" DOUBLE PRECISION,

    CONSTRAINT "GpuMinute_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "HostMinute" (
    "id" TEXT NOT NULL,
    "minuteStart" TIMESTAMP(3) NOT NULL,
    "hostId" TEXT NOT NULL,
    "samples" INTEGER NOT NULL,
    "upSamples" INTEGER NOT NULL,

    CONSTRAINT "HostMinute_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Lease" (
    "name" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Lease_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "JobState" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "JobState_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "Budget" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "scopeKind" TEXT NOT NULL,
    "scopeValue" TEXT NOT NULL DEFAULT '',
    "amountMicros" BIGINT NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "thresholds" TEXT NOT NULL DEFAULT '[50,80,100]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Budget_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertRule" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "scopeKind" TEXT NOT NULL DEFAULT 'fleet',
    "scopeValue" TEXT NOT NULL DEFAULT '',
    "params" TEXT NOT NULL DEFAULT '{}',
    "excludeLabels" TEXT NOT NULL DEFAULT '{}',
    "cooldownSeconds" INTEGER NOT NULL DEFAULT 3600,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AlertRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Alert" (
    "id" TEXT NOT NULL,
    "ruleId" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "severity" TEXT NOT NULL DEFAULT 'warning',
    "hostId" TEXT,
    "gpuUuid" TEXT,
    "state" TEXT NOT NULL DEFAULT 'firing',
    "summary" TEXT NOT NULL,
    "details" TEXT NOT NULL DEFAULT '{}',
    "startsAt" TIMESTAMP(3) NOT NULL,
    "endsAt" TIMESTAMP(3),
    "acknowledgedBy" TEXT,
    "acknowledgedAt" TIMESTAMP(3),
    "snoozedUntil" TIMESTAMP(3),
    "openKey" TEXT,
    "team" TEXT,
    "project" TEXT,
    "resolvedBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Alert_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertEvent" (
    "id" TEXT NOT NULL,
    "alertId" TEXT NOT NULL,
    "from" TEXT,
    "to" TEXT NOT NULL,
    "by" TEXT,
    "note" TEXT,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AlertEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Channel" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "scopeKind" TEXT NOT NULL DEFAULT 'fleet',
    "scopeValue" TEXT NOT NULL DEFAULT '',
    "kinds" TEXT NOT NULL DEFAULT '[]',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Channel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Notification" (
    "id" TEXT NOT NULL,
    "alertId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "transition" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastError" TEXT,
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Notification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NotificationAttempt" (
    "id" TEXT NOT NULL,
    "notificationId" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "httpStatus" INTEGER,
    "error" TEXT,
    "durationMs" INTEGER NOT NULL,

    CONSTRAINT "NotificationAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Recommendation" (
    "id" TEXT NOT NULL,
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
    "snoozedUntil" TIMESTAMP(3),
    "actedBy" TEXT,
    "actedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Recommendation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "passwordHash" TEXT,
    "role" TEXT NOT NULL DEFAULT 'viewer',
    "teams" TEXT NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
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
CREATE UNIQUE INDEX "PriceEntry_provider_instanceType_region_pricingModel_effect_key" ON "PriceEntry"("provider", "instanceType", "region", "pricingModel", "effectiveFrom");

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
CREATE UNIQUE INDEX "Alert_openKey_key" ON "Alert"("openKey");

-- CreateIndex
CREATE INDEX "Alert_state_idx" ON "Alert"("state");

-- CreateIndex
CREATE INDEX "Alert_fingerprint_idx" ON "Alert"("fingerprint");

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

-- AddForeignKey
ALTER TABLE "Gpu" ADD CONSTRAINT "Gpu_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "Host"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UsageHour" ADD CONSTRAINT "UsageHour_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "Host"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GpuMinute" ADD CONSTRAINT "GpuMinute_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "Host"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HostMinute" ADD CONSTRAINT "HostMinute_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "Host"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Alert" ADD CONSTRAINT "Alert_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "AlertRule"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertEvent" ADD CONSTRAINT "AlertEvent_alertId_fkey" FOREIGN KEY ("alertId") REFERENCES "Alert"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_alertId_fkey" FOREIGN KEY ("alertId") REFERENCES "Alert"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NotificationAttempt" ADD CONSTRAINT "NotificationAttempt_notificationId_fkey" FOREIGN KEY ("notificationId") REFERENCES "Notification"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Recommendation" ADD CONSTRAINT "Recommendation_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "Host"("id") ON DELETE CASCADE ON UPDATE CASCADE;

