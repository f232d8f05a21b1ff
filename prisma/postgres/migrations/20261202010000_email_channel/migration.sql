-- DropIndex
DROP INDEX "Notification_alertId_channelId_transition_key";

-- AlterTable
ALTER TABLE "Channel" ADD COLUMN     "config" TEXT NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "Notification" ADD COLUMN     "recipient" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE UNIQUE INDEX "Notification_alertId_channelId_transition_recipient_key" ON "Notification"("alertId", "channelId", "transition", "recipient");

