-- CreateTable
CREATE TABLE "WorkHour" (
    "id" TEXT NOT NULL,
    "hourStart" TIMESTAMP(3) NOT NULL,
    "hostId" TEXT NOT NULL,
    "unit" TEXT NOT NULL,
    "modelName" TEXT NOT NULL DEFAULT '',
    "job" TEXT NOT NULL DEFAULT '',
    "source" TEXT NOT NULL DEFAULT '',
    "units" DOUBLE PRECISION NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WorkHour_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WorkTrial" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "hostId" TEXT NOT NULL,
    "startsAt" TIMESTAMP(3) NOT NULL,
    "endsAt" TIMESTAMP(3),
    "origin" TEXT NOT NULL,
    "createdBy" TEXT,
    "report" TEXT,
    "reportedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkTrial_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WorkHour_hourStart_idx" ON "WorkHour"("hourStart");

-- CreateIndex
CREATE UNIQUE INDEX "WorkHour_hostId_hourStart_unit_modelName_job_key" ON "WorkHour"("hostId", "hourStart", "unit", "modelName", "job");

-- CreateIndex
CREATE INDEX "WorkTrial_endsAt_idx" ON "WorkTrial"("endsAt");

-- CreateIndex
CREATE UNIQUE INDEX "WorkTrial_hostId_name_key" ON "WorkTrial"("hostId", "name");

-- AddForeignKey
ALTER TABLE "WorkHour" ADD CONSTRAINT "WorkHour_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "Host"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkTrial" ADD CONSTRAINT "WorkTrial_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "Host"("id") ON DELETE CASCADE ON UPDATE CASCADE;

