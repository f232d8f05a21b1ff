-- Issue 25: idle-release policies, their episodes (warnings, keeps, one action) and signed keep links.
-- CreateTable
CREATE TABLE "Policy" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'idle_release',
    "mode" TEXT NOT NULL DEFAULT 'dry_run',
    "action" TEXT NOT NULL DEFAULT 'stop',
    "idleHours" REAL NOT NULL DEFAULT 24,
    "warnAt" TEXT NOT NULL DEFAULT '[0.5,0.9]',
    "graceMinutes" INTEGER NOT NULL DEFAULT 60,
    "scopeKind" TEXT NOT NULL DEFAULT 'fleet',
    "scopeValue" TEXT NOT NULL DEFAULT '',
    "executor" TEXT NOT NULL DEFAULT 'simulated',
    "webhookUrl" TEXT,
    "optOutLabel" TEXT NOT NULL DEFAULT 'gpufleet.io/keep=true',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "PolicyEpisode" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "policyId" TEXT NOT NULL,
    "hostId" TEXT NOT NULL,
    "idleSince" DATETIME NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'open',
    "warnings" INTEGER NOT NULL DEFAULT 0,
    "lastWarnAt" DATETIME,
    "keepUntil" DATETIME,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME,
    "claimUntil" DATETIME,
    "lastError" TEXT,
    "action" TEXT,
    "actedAt" DATETIME,
    "resumedAt" DATETIME,
    "hourlyMicros" BIGINT,
    "closedAt" DATETIME,
    "openKey" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "PolicyEpisode_policyId_fkey" FOREIGN KEY ("policyId") REFERENCES "Policy" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PolicyKeepLink" (
    "nonce" TEXT NOT NULL PRIMARY KEY,
    "episodeId" TEXT NOT NULL,
    "hostId" TEXT NOT NULL,
    "hours" INTEGER NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "usedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PolicyKeepLink_episodeId_fkey" FOREIGN KEY ("episodeId") REFERENCES "PolicyEpisode" ("id") ON DELETE CASCADE ON UPDATE CASCADE
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

