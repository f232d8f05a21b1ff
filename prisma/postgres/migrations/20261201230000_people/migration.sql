-- CreateTable
CREATE TABLE "PersonContact" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "email" TEXT,
    "slackId" TEXT,
    "source" TEXT NOT NULL DEFAULT 'manual',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PersonContact_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PersonContact_email_idx" ON "PersonContact"("email");

-- CreateIndex
CREATE UNIQUE INDEX "PersonContact_kind_key_key" ON "PersonContact"("kind", "key");

