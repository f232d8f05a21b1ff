-- CreateTable
CREATE TABLE "WorkHour" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "hourStart" DATETIME NOT NULL,
    "hostId" TEXT NOT NULL,
    "unit" TEXT NOT NULL,
    "modelName" TEXT NOT NULL DEFAULT '',
    "job" TEXT NOT NULL DEFAULT '',
    "source" TEXT NOT NULL DEFAULT '',
    "units" REAL NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "WorkHour_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "Host" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "WorkTrial" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "hostId" TEXT NOT NULL,
    "startsAt" DATETIME NOT NULL,
    "endsAt" DATETIME,
    "origin" TEXT NOT NULL,
    "createdBy" TEXT,
    "report" TEXT,
    "reportedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "WorkTrial_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "Host" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "WorkHour_hourStart_idx" ON "WorkHour"("hourStart");

-- CreateIndex
CREATE UNIQUE INDEX "WorkHour_hostId_hourStart_unit_modelName_job_key" ON "WorkHour"("hostId", "hourStart", "unit", "modelName", "job");

-- CreateIndex
CREATE INDEX "WorkTrial_endsAt_idx" ON "WorkTrial"("endsAt");

-- CreateIndex
CREATE UNIQUE INDEX "WorkTrial_hostId_name_key" ON "WorkTrial"("hostId", "name");

