import "server-only";
import type { Db } from "../db.ts";
import { createChannel, updateChannel } from "../notify/save-channel.ts";
import { channelInputSchema } from "../zod/schemas/channel.ts";
import type { EmailChannelConfig } from "../zod/schemas/email-channel.ts";

// The demo's mailbox (issue 24): `npm start` runs an SMTP catcher on 127.0.0.1 (scripts/
// demo-mailbox.ts, which saves each message under data/demo-mail/) and the demo has one email
// channel pointing at it, for idle alerts. The people directory maps the simulator's users to
// addresses, so an idle GPU's alert is mailed to whoever holds it: alice's to the demo viewer.
// Nothing leaves the machine. The catcher's port is chosen at each start, so the channel follows.

export const DEMO_MAILBOX_CHANNEL = "Demo mailbox (idle GPUs, mailed to whoever holds them)";
export const DEMO_MAIL_FROM = "gpufleet@demo.gpufleet.test";

function settings(port: number): EmailChannelConfig {
  return {
    host: "127.0.0.1",
    port,
    tls: "none",
    from: DEMO_MAIL_FROM,
    to: [],
    username: null,
    passwordFile: null,
    caFile: null,
  };
}

/**
 * Points the demo's mailbox channel at the catcher's port. `create`: the demo was seeded just now,
 * so the channel is made; on later starts an existing one is only re-pointed (an admin who deleted
 * it is not overruled). Returns what it did.
 */
export async function pointDemoMailbox(
  db: Db,
  port: number,
  { create }: { create: boolean },
): Promise<"created" | "updated" | "absent"> {
  const existing = await db.channel.findFirst({
    where: { name: DEMO_MAILBOX_CHANNEL, kind: "email" },
    select: { id: true },
  });
  if (existing) {
    await updateChannel(existing.id, { email: settings(port) }, db);
    return "updated";
  }
  if (!create) return "absent";
  const input = channelInputSchema.parse({
    name: DEMO_MAILBOX_CHANNEL,
    kind: "email",
    email: settings(port),
    scopeKind: "fleet",
    kinds: ["idle"],
    enabled: true,
  });
  await createChannel(input, db);
  return "created";
}
