-- CreateTable
CREATE TABLE "Policy" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'idle_release',
    "mode" TEXT NOT NULL DEFAULT 'dry_run',
    "action" TEXT NOT NULL DEFAULT 'stop',
    "idleHours" DOUBLE PRECISION NOT NULL DEFAULT 24,
    "warnAt" TEXT NOT NULL DEFAULT '[0.5,0.9]',
    "graceMinutes" INTEGER NOT NULL DEFAULT 60,
    "scopeKind" TEXT NOT NULL DEFAULT 'fleet',
    "scopeValue" TEXT NOT NULL DEFAULT '',
    "executor" TEXT NOT NULL DEFAULT 'simulated',
    "webhookUrl" TEXT,
    "optOutLabel" TEXT NOT NULL DEFAULT 'gpufleet.io/keep=true',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Policy_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PolicyEpisode" (
    "id" TEXT NOT NULL,
    "policyId" TEXT NOT NULL,
    "hostId" TEXT NOT NULL,
    "idleSince" TIMESTAMP(3) NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'open',
    "warnings" INTEGER NOT NULL DEFAULT 0,
    "lastWarnAt" TIMESTAMP(3),
    "keepUntil" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3),
    "claimUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "action" TEXT,
    "actedAt" TIMESTAMP(3),
    "resumedAt" TIMESTAMP(3),
    "hourlyMicros" BIGINT,
    "closedAt" TIMESTAMP(3),
    "openKey" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PolicyEpisode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PolicyKeepLink" (
    "nonce" TEXT NOT NULL,
    "episodeId" TEXT NOT NULL,
    "hostId" TEXT NOT NULL,
    "hours" INTEGER NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PolicyKeepLink_pkey" PRIMARY KEY ("nonce")
);

-- CreateIndex
CREATE UNIQUE INDEX "Policy_name_key" ON "Policy"("name");

-- CreateIndex
CREATE UNIQUE INDEX "PolicyEpisode_openKey_key" ON "PolicyEpisode"("openKey");

-- CreateIndex
CREATE INDEX "PolicyEpisode_state_idx" ON "PolicyEpisode"("state");

-- CreateIndex
CREATE INDEX "PolicyEpisode_hostId_idx" ON "PolicyEpisode"("hostId");

-- CreateIndex
CREATE INDEX "PolicyKeepLink_episodeId_idx" ON "PolicyKeepLink"("episodeId");

-- AddForeignKey
ALTER TABLE "PolicyEpisode" ADD CONSTRAINT "PolicyEpisode_policyId_fkey" FOREIGN KEY ("policyId") REFERENCES "Policy"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PolicyKeepLink" ADD CONSTRAINT "PolicyKeepLink_episodeId_fkey" FOREIGN KEY ("episodeId") REFERENCES "PolicyEpisode"("id") ON DELETE CASCADE ON UPDATE CASCADE;

