import "../testing/no-egress.ts";
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeGpu, makeHost } from "../alerts/fixtures.ts";
import type { Db } from "../db.ts";
import { startReceiver, type Receiver } from "../notify/receiver.ts";
import { postJson } from "../notify/send.ts";
import { installShippedCatalogue } from "../pricing/seed.ts";
import { startFakeEc2, type FakeEc2 } from "../testing/fake-ec2.ts";
import { scriptedMetrics } from "../testing/scripted-metrics.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { policyInputSchema } from "../zod/schemas/policy.ts";
import { awsEc2Executor } from "./executors/aws-ec2.ts";
import { runPolicyJob } from "./job.ts";
import { createPolicy, updatePolicy } from "./store.ts";

// Two app processes on one store run the policies job at the same instants: this one and a forked
// one, each with its own Db client (on PostgreSQL in CI, SQLite here). Each host's episode opens
// once, each warning goes out once, and StopInstances reaches the local EC2 endpoint exactly once
// per host, also on the ticks after (a restart finds the episode acted).

const T0 = new Date("2026-11-20T00:00:00Z");
const at = (min: number) => new Date(T0.getTime() + min * 60_000);
const HOSTS = ["h1", "h2", "h3", "h4"];
let db: Db;
let other: ChildProcess;
let ec2: FakeEc2;
let rx: Receiver;

type Reply = { ready?: boolean; ok?: boolean; error?: string };
const next = (c: ChildProcess) =>
  new Promise<Reply>((resolve) => c.once("message", (m) => resolve(m as Reply)));

function here(now: Date) {
  const metrics = scriptedMetrics(
    () => db.gpu.findMany({ select: { hostId: true, uuid: true } }),
    (_h, _u, t) => (t >= T0.getTime() ? 0 : 0.9),
  );
  return runPolicyJob(
    { db, now, metrics },
    {
      executorFor: () =>
        awsEc2Executor({
          endpoint: ec2.url,
          credentials: { accessKeyId: "AKIDHERE", secretAccessKey: "here-secret" },
        }),
      warn: { send: postJson, allowPrivate: async () => true, publicUrl: "http://gpufleet.test" },
    },
  );
}

async function both(now: Date) {
  const reply = next(other);
  other.send({ at: now.toISOString() });
  const [mine, theirs] = await Promise.all([here(now), reply]);
  expect(theirs.error).toBeUndefined();
  return mine;
}

beforeAll(async () => {
  const t = makeTestDb();
  db = t.db;
  await installShippedCatalogue(db);
  ec2 = await startFakeEc2({ delayMs: 20 });
  rx = await startReceiver(async () => {
    await new Promise((r) => setTimeout(r, 5));
    return 200;
  });
  await db.channel.create({ data: { name: "ops", kind: "webhook", url: rx.url } });
  for (const [i, name] of HOSTS.entries()) {
    const h = await makeHost(db, name, { lastSeen: T0 });
    await db.host.update({ where: { id: h.id }, data: { instanceId: `i-000000000000000${i}` } });
    await makeGpu(db, h.id, `${name}-0`, 0);
  }
  const p = await createPolicy(
    policyInputSchema.parse({
      name: "Race",
      executor: "aws",
      idleHours: 1,
      warnAt: [0.5],
      graceMinutes: 0,
    }),
    null,
    { actor: "admin@example.com" },
    db,
  );
  await updatePolicy(p.id, { mode: "active" }, null, { actor: "admin@example.com" }, db);
  other = fork(
    fileURLToPath(new URL("../testing/workers/policy-worker.ts", import.meta.url)),
    [t.url, ec2.url],
    {
      execArgv: ["--conditions=react-server", "--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      env: { ...process.env, POLICY_T0: String(T0.getTime()) },
    },
  );
  expect((await next(other)).ready).toBe(true);
}, 60_000);

afterAll(async () => {
  const exited = new Promise((r) => other.once("exit", r));
  other.send("exit");
  await exited;
  await rx.close();
  await ec2.close();
  await db.$disconnect();
});

describe("two processes, one store", () => {
  it("open each episode once, warn once and stop each host exactly once", async () => {
    for (const m of [31, 40, 61, 62, 63, 90, 120]) await both(at(m));
    expect(await db.policyEpisode.count()).toBe(HOSTS.length);
    const stops = ec2.calls.filter((c) => c.action === "StopInstances");
    expect(
      stops
        .filter((c) => c.ok)
        .map((c) => c.instanceId)
        .sort(),
    ).toEqual(HOSTS.map((_, i) => `i-000000000000000${i}`));
    expect(stops).toHaveLength(HOSTS.length);
    await expect.poll(() => rx.requests.length, { timeout: 10_000 }).toBe(HOSTS.length);
    expect(await db.auditEvent.count({ where: { action: "policy.act" } })).toBe(HOSTS.length);
    expect(await db.auditEvent.count({ where: { action: "policy.warn" } })).toBe(HOSTS.length);
    const states = await db.policyEpisode.findMany({ select: { state: true, attempts: true } });
    expect(states.every((s) => s.state === "acted" && s.attempts === 1)).toBe(true);
  }, 120_000);
});
