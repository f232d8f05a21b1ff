import "../testing/no-egress.ts";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeGpu, makeHost } from "../alerts/fixtures.ts";
import type { Db } from "../db.ts";
import { postJson } from "../notify/send.ts";
import { installShippedCatalogue } from "../pricing/seed.ts";
import { startFakeEc2, type FakeEc2 } from "../testing/fake-ec2.ts";
import { scriptedMetrics } from "../testing/scripted-metrics.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { policyInputSchema } from "../zod/schemas/policy.ts";
import { awsEc2Executor } from "./executors/aws-ec2.ts";
import { runPolicyJob } from "./job.ts";
import { redeemKeepLink } from "./keep-link.ts";
import { listPlannedActions } from "./plan.ts";
import { runStart } from "./runtime.ts";
import { createPolicy, updatePolicy } from "./store.ts";

// A maximum-run-time policy (4 h) on a pinned clock, through the idle-release machinery: the run
// starts at the host's first answered minute after its last failed one; dry run lists the running
// hosts in scope (not the opted-out one, not the one down, not the other team's) with when it
// would act and the $; made active it warns at 50 % and 90 % (a keep link from the second
// extends by 4 h), then stops the host once through the AWS SDK against a local EC2 endpoint.
// A restart (a failed minute) ends the episode and the next run starts a new one.

const H = 3_600_000;
const M = 60_000;
const T0 = new Date("2026-11-20T00:00:00Z");
const AUDIT = { actor: "admin@example.com", ip: null };
let db: Db;
let ec2: FakeEc2;
let receiver: Server;
let policyId = "";
const received: Record<string, unknown>[] = [];
const ids = { long: "", kept: "", other: "", off: "" };

// busy GPUs throughout: a long run is not idle, only long
const metrics = scriptedMetrics(
  () => db.gpu.findMany({ select: { hostId: true, uuid: true } }),
  () => 0.9,
);
const at = (ms: number) => new Date(T0.getTime() + ms);

function tick(now: Date) {
  return runPolicyJob(
    { db, now, metrics },
    {
      executorFor: () =>
        awsEc2Executor({
          endpoint: ec2.url,
          maxAttempts: 1,
          credentials: { accessKeyId: "AKIDTEST", secretAccessKey: "test-secret" },
        }),
      warn: { send: postJson, allowPrivate: async () => true, publicUrl: "http://gpufleet.test" },
      maxAttempts: 3,
      baseDelayMs: 5 * M,
      maxDelayMs: 30 * M,
      claimTtlMs: 5 * M,
    },
  );
}

/** Host minutes: `up` answered minutes from `from`, each `1 min` apart; a failed one with up=0. */
async function minutes(hostId: string, from: Date, n: number, up = true) {
  await db.hostMinute.createMany({
    data: Array.from({ length: n }, (_, i) => ({
      hostId,
      minuteStart: new Date(from.getTime() + i * M),
      samples: 4,
      upSamples: up ? 4 : 0,
    })),
  });
}

beforeAll(async () => {
  db = makeTestDb().db;
  await installShippedCatalogue(db);
  ec2 = await startFakeEc2();
  receiver = createServer((req, res) => {
    let s = "";
    req.on("data", (c: Buffer) => (s += c.toString()));
    req.on("end", () => {
      received.push(JSON.parse(s) as Record<string, unknown>);
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const port = (receiver.address() as AddressInfo).port;
  await db.channel.create({
    data: { name: "ops", kind: "webhook", url: `http://127.0.0.1:${port}/hook` },
  });
  for (const [name, extra] of [
    ["long", { owner: "ana" }],
    ["kept", { labels: { "gpufleet.io/keep": "true" } }],
    ["other", { team: "vision" }],
    ["off", {}],
  ] as const) {
    const h = await makeHost(db, name, { ...extra, lastSeen: T0 });
    ids[name] = h.id;
    await makeGpu(db, h.id, `${name}-0`, 0);
  }
  await db.host.update({ where: { id: ids.long }, data: { instanceId: "i-0f1e2d3c4b5a69788" } });
  await db.host.update({ where: { id: ids.off }, data: { state: "down" } });
  // "long": answered from T0-3h, failed at T0-2h (a reboot), answered again from T0-2h+1m;
  // a stretch the app recorded nothing for (T0-1h .. T0-30m) is not a break
  await minutes(ids.long, at(-3 * H), 10);
  await minutes(ids.long, at(-2 * H), 1, false);
  await minutes(ids.long, at(-2 * H + M), 5);
  await minutes(ids.long, at(-30 * M), 5);
});
afterAll(async () => {
  receiver.close();
  await ec2.close();
  await db.$disconnect();
});

describe("a maximum-run-time policy", () => {
  const RUN = at(-2 * H + M);

  it("dates a run from the first answered minute after the last failed one", async () => {
    expect(await runStart(db, ids.long, T0)).toEqual(RUN);
    // no minutes at all (Prometheus mode): the run is first seen now
    expect(await runStart(db, ids.other, T0)).toEqual(T0);
  });

  it("dry run lists the running hosts in scope with when it would stop them and the $", async () => {
    const p = await createPolicy(
      policyInputSchema.parse({
        name: "Run at most 4h",
        kind: "max_runtime",
        idleHours: 4,
        executor: "aws",
        scopeKind: "team",
        scopeValue: "research",
      }),
      null,
      AUDIT,
      db,
    );
    policyId = p.id;
    expect(p).toMatchObject({ kind: "max_runtime", mode: "dry_run", warnAt: [0.5, 0.9] });
    expect((await tick(T0)).opened).toBe(1);
    const { actions } = await listPlannedActions(null, { client: db, now: T0 });
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({
      hostname: "long",
      kind: "max_runtime",
      mode: "dry_run",
      action: "stop",
      idleSince: RUN.toISOString(),
      // the last warning at 90 % of 4 h, then 60 min grace
      actAt: new Date(RUN.getTime() + 3.6 * H + 60 * M).toISOString(),
      warningsSent: 0,
    });
    expect(BigInt(actions[0]?.monthlySavingMicros ?? "0")).toBeGreaterThan(0n);
    // in dry run nothing is sent or called, even past the time it would act
    const late = await tick(new Date(RUN.getTime() + 5 * H));
    expect(late).toMatchObject({ warned: 0, acted: 0, opened: 0, closed: 0 });
    expect(received).toHaveLength(0);
    expect(ec2.calls).toHaveLength(0);
  });

  it("active: warns holder and owner at 50 % and 90 %, a keep holds, then stops once", async () => {
    await updatePolicy(policyId, { mode: "active" }, null, AUDIT, db);
    // switched active 5 h into the run: both warnings are due; one message says 2 of 2
    const w = new Date(RUN.getTime() + 5 * H);
    expect((await tick(w)).warned).toBe(1);
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
    expect(received[0]).toMatchObject({
      type: "gpufleet.policy.warning",
      policy: { kind: "max_runtime", action: "stop" },
      host: { hostname: "long" },
      recipients: [{ role: "owner", name: "ana" }],
      warning: { number: 2, of: 2 },
    });
    expect(received[0]?.text).toContain("running longer than policy");
    // not yet: the grace after the warning runs until w + 60 min
    expect((await tick(new Date(w.getTime() + 30 * M))).acted).toBe(0);
    const links = received[0]?.keepLinks as { hours: number; url: string }[];
    const token = (links[0]?.url ?? "").split("/keep/")[1] ?? "";
    const k = new Date(w.getTime() + 40 * M);
    expect(await redeemKeepLink(db, token, k, null)).toMatchObject({ ok: true, hours: 4 });
    expect((await tick(new Date(w.getTime() + 2 * H))).acted).toBe(0);
    expect(ec2.calls).toHaveLength(0);
    const after = new Date(k.getTime() + 4 * H + M);
    expect((await tick(after)).acted).toBe(1);
    expect((await tick(new Date(after.getTime() + M))).acted).toBe(0);
    expect(ec2.calls.map((c) => [c.action, c.instanceId, c.region, c.ok])).toEqual([
      ["StopInstances", "i-0f1e2d3c4b5a69788", "us-east-1", true],
    ]);
    const acts = await db.auditEvent.findMany({ where: { action: "policy.act" } });
    expect(acts.map((a) => a.target)).toEqual(["long"]);
  });

  it("a restart ends the run's episode; the next run opens a new one from its start", async () => {
    const start = new Date(T0.getTime() + 20 * H);
    // the stopped host is started again: it answers, so the stopped episode ends
    await db.host.update({ where: { id: ids.long }, data: { lastSeen: start, state: "up" } });
    await minutes(ids.long, at(11 * H), 1, false);
    await minutes(ids.long, start, 3);
    const r = await tick(new Date(start.getTime() + 3 * M));
    expect(r).toMatchObject({ resumed: 1 });
    // the next tick opens the new run's episode, dated from its first answered minute
    expect((await tick(new Date(start.getTime() + 4 * M))).opened).toBe(1);
    const open = await db.policyEpisode.findFirstOrThrow({ where: { state: "open" } });
    expect(open.idleSince).toEqual(start);
    // a failed minute after it began ends the episode (the host rebooted)
    await minutes(ids.long, new Date(start.getTime() + 10 * M), 1, false);
    expect((await tick(new Date(start.getTime() + 12 * M))).closed).toBe(1);
  });

  it("another kind counts another clock: changing the kind closes the live episodes", async () => {
    const now = new Date(T0.getTime() + 21 * H);
    await minutes(ids.long, new Date(now.getTime() - 5 * M), 3);
    expect((await tick(now)).opened).toBe(1);
    await updatePolicy(policyId, { kind: "idle_release" }, null, AUDIT, db);
    expect(await db.policyEpisode.count({ where: { state: "open" } })).toBe(0);
  });
});
