-- CreateTable
CREATE TABLE "PersonContact" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "email" TEXT,
    "slackId" TEXT,
    "source" TEXT NOT NULL DEFAULT 'manual',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "PersonContact_email_idx" ON "PersonContact"("email");

-- CreateIndex
CREATE UNIQUE INDEX "PersonContact_kind_key_key" ON "PersonContact"("kind", "key");

