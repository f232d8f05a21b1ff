import type { Db } from "../db.ts";
import { enqueueNotifications } from "./enqueue.ts";

// Test data for the Alertmanager channel tests: an open idle alert on a host, with one
// alertmanager_api channel and its queued notification (firing, or resolved when the alert is).
// Names count up per test file, which has its own database.

let n = 0;

export async function alertOnNewChannel(
  db: Db,
  channelUrl: string,
  startsAt: Date,
  data: { endsAt?: Date; state?: string } = {},
) {
  n++;
  const tag = String(n);
  const rule = await db.alertRule.create({ data: { name: "Idle GPUs", kind: "idle" } });
  const host = await db.host.create({
    data: { hostname: `gpu-node-${tag}`, team: "research", project: "llm", owner: "alice" },
  });
  const channel = await db.channel.create({
    data: { name: `am-${tag}`, kind: "alertmanager_api", url: channelUrl },
  });
  const alert = await db.alert.create({
    data: {
      ruleId: rule.id,
      fingerprint: `idle:${rule.id}:GPU-${tag}`,
      kind: "idle",
      hostId: host.id,
      gpuUuid: `GPU-${tag}`,
      summary: `GPU 3 on gpu-node-${tag} held but idle`,
      details: JSON.stringify({ gpuIndex: 3 }),
      startsAt,
      team: "research",
      project: "llm",
      ...data,
    },
  });
  const routable = { ...alert, hostname: host.hostname };
  const transition = data.state === "resolved" ? "resolved" : "firing";
  await enqueueNotifications(db, routable, transition, startsAt, new Set([channel.id]));
  return { alert, channel, host, routable };
}
