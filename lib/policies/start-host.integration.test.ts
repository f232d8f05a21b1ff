import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeHost } from "../alerts/fixtures.ts";
import type { Db } from "../db.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { policyInputSchema } from "../zod/schemas/policy.ts";
import { startableOnSimulatedCloud, startStoppedHost } from "./start-host.ts";
import { createPolicy } from "./store.ts";

// "Start again" is offered only for a stop the simulated cloud made: a host an AWS (or webhook)
// policy stopped is started in that cloud, and the button would only answer 409.

const T0 = new Date("2026-11-20T12:00:00Z");
const AUDIT = { actor: "admin@example.com", ip: null };
let db: Db;

beforeAll(async () => {
  db = makeTestDb().db;
});
afterAll(async () => db.$disconnect());

async function stopped(hostname: string, executor: "simulated" | "webhook") {
  const host = await makeHost(db, hostname, { lastSeen: T0 });
  const input = policyInputSchema.parse({
    name: `p-${hostname}`,
    executor,
    ...(executor === "webhook" ? { webhookUrl: "https://hooks.example.com/stop" } : {}),
  });
  const policy = await createPolicy(input, null, AUDIT, db);
  await db.policyEpisode.create({
    data: {
      policyId: policy.id,
      hostId: host.id,
      state: "acted",
      action: "stop",
      idleSince: T0,
      actedAt: T0,
    },
  });
  return host.id;
}

describe("startableOnSimulatedCloud", () => {
  it("is true for an open simulated-cloud stop only", async () => {
    const sim = await stopped("sim-host", "simulated");
    const hook = await stopped("hook-host", "webhook");
    const never = (await makeHost(db, "never-stopped", { lastSeen: T0 })).id;
    expect(await startableOnSimulatedCloud(sim, db)).toBe(true);
    expect(await startableOnSimulatedCloud(hook, db)).toBe(false);
    expect(await startableOnSimulatedCloud(never, db)).toBe(false);
    // and the route's service agrees: the webhook-stopped host cannot be started from here
    await expect(startStoppedHost(hook, null, AUDIT, db)).rejects.toThrow(
      /not stopped by a simulated-cloud policy/,
    );
    await db.policyEpisode.updateMany({ where: { hostId: sim }, data: { resumedAt: T0 } });
    expect(await startableOnSimulatedCloud(sim, db)).toBe(false);
  });
});
