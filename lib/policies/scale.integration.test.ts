import "../testing/no-egress.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeGpu, makeHost } from "../alerts/fixtures.ts";
import type { Db } from "../db.ts";
import { postJson } from "../notify/send.ts";
import { startFakeAsg, type FakeAsg } from "../testing/fake-asg.ts";
import { scriptedMetrics } from "../testing/scripted-metrics.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { policyInputSchema } from "../zod/schemas/policy.ts";
import { awsAsgScale } from "./executors/aws-asg.ts";
import { simulatedExecutor } from "./executors/simulated.ts";
import type { Executor } from "./executors/types.ts";
import { runPolicyJob } from "./job.ts";
import { listScaleSignals } from "./scale.ts";
import { createPolicy, updatePolicy } from "./store.ts";

// A scale policy on a simulated fleet with a pinned clock. Pool "asg:train" (two hosts labelled
// gpufleet.io/asg=train) runs at 85 % from T0; pool "type:g5.xlarge|team:research" (two hosts)
// idles at 10 % from T0; one p4d host idles alone. Dry run records scale-out after 15 minutes at
// or above 80 %, then waits out the 10-minute cool-down; scale-in after an hour under 20 %; never
// under min (1) or over max (3). Active, the AWS executor calls Auto Scaling SetDesiredCapacity
// through the real SDK against a local endpoint, once per signal.

const M = 60_000;
const T0 = new Date("2026-11-20T12:00:00Z");
const AUDIT = { actor: "admin@example.com", ip: null };
let db: Db;
let asg: FakeAsg;
let policyId = "";
const hostIds: Record<string, string> = {};
const at = (min: number) => new Date(T0.getTime() + min * M);

function util(hostId: string, _uuid: string, t: number): number {
  const name = Object.entries(hostIds).find(([, id]) => id === hostId)?.[0] ?? "";
  if (name.startsWith("train")) return t >= T0.getTime() ? 0.85 : 0.5;
  return t >= T0.getTime() ? 0.1 : 0.9;
}
const metrics = scriptedMetrics(
  () => db.gpu.findMany({ select: { hostId: true, uuid: true } }),
  util,
);

function tick(now: Date, aws = false) {
  const executor = (): Executor =>
    aws
      ? {
          name: "aws",
          run: () => Promise.reject(new Error("no host action in this test")),
          scale: (t) =>
            awsAsgScale(t, {
              endpoint: asg.url,
              credentials: { accessKeyId: "AKIDTEST", secretAccessKey: "test-secret" },
            }),
        }
      : simulatedExecutor(db);
  return runPolicyJob(
    { db, now, metrics },
    {
      executorFor: executor,
      warn: { send: postJson, allowPrivate: async () => true, publicUrl: "http://gpufleet.test" },
    },
  );
}

async function addHost(name: string, extra: Parameters<typeof makeHost>[2]) {
  const h = await makeHost(db, name, { lastSeen: T0, ...extra });
  hostIds[name] = h.id;
  await makeGpu(db, h.id, `${name}-0`, 0);
}

beforeAll(async () => {
  db = makeTestDb().db;
  asg = await startFakeAsg();
  for (const n of ["train-1", "train-2"])
    await addHost(n, { labels: { "gpufleet.io/asg": "train" } });
  for (const n of ["g5-1", "g5-2"]) await addHost(n, { instanceType: "g5.xlarge" });
  await addHost("lone", {});
});
afterAll(async () => {
  await asg.close();
  await db.$disconnect();
});

describe("a scale policy", () => {
  it("dry run: scale-out after 15 min at or above 80 %, then the cool-down", async () => {
    const p = await createPolicy(
      policyInputSchema.parse({
        name: "Scale research",
        kind: "scale",
        scopeKind: "team",
        scopeValue: "research",
        scale: { min: 1, max: 3 },
      }),
      null,
      AUDIT,
      db,
    );
    policyId = p.id;
    expect(p).toMatchObject({ kind: "scale", mode: "dry_run", scale: { highMark: 0.8, max: 3 } });
    expect((await tick(at(10))).signals).toBe(0); // 10 of 15 minutes busy
    const r = await tick(at(15));
    expect(r).toMatchObject({ signals: 1, scaled: 0, opened: 0 });
    const { signals } = await listScaleSignals(null, db);
    expect(signals).toEqual([
      expect.objectContaining({
        policyName: "Scale research",
        mode: "dry_run",
        pool: "asg:train",
        direction: "out",
        share: 1,
        hosts: 2,
        fromSize: 2,
        toSize: 3,
        state: "recorded",
        at: at(15).toISOString(),
      }),
    ]);
    expect((await tick(at(20))).signals).toBe(0); // cool-down (10 min)
    expect((await tick(at(25))).signals).toBe(1);
    expect(asg.calls).toHaveLength(0);
    // the lone idle p4d host is its pool's only host: min 1 holds it
    const pools = (await listScaleSignals(null, db)).signals.map((s) => s.pool);
    expect(pools).not.toContain("type:p4d.24xlarge|team:research");
  });

  it("dry run: scale-in after an hour under 20 %, never under min", async () => {
    expect((await tick(at(45))).signals).toBe(1); // asg:train again; g5 idle 45 of 60 minutes
    expect((await tick(at(50))).signals).toBe(0); // train cooling down; g5 idle 50 of 60
    // g5 idle 55 of 60 minutes: 90 % of the hour under the low mark (SUSTAINED_SHARE)
    expect((await tick(at(55))).signals).toBe(2);
    const g5 = (await listScaleSignals(null, db)).signals.find((s) => s.direction === "in");
    expect(g5).toMatchObject({
      pool: "type:g5.xlarge|team:research",
      fromSize: 2,
      toSize: 1,
      state: "recorded",
    });
    expect(g5?.share).toBeCloseTo(55 / 60, 5);
    // g5 shrank to its min (1): no further scale-in; train keeps signalling out
    await db.host.update({ where: { id: hostIds["g5-2"] }, data: { state: "down" } });
    expect((await tick(at(75))).signals).toBe(1);
  });

  it("active: SetDesiredCapacity once per signal, cool-down respected, never over max", async () => {
    await updatePolicy(
      policyId,
      { mode: "active", executor: "aws", scopeKind: "label", scopeValue: "gpufleet.io/asg=train" },
      null,
      AUDIT,
      db,
    );
    expect(await tick(at(80), true)).toMatchObject({ signals: 1, scaled: 1, scaleFailed: 0 });
    expect(await tick(at(85), true)).toMatchObject({ signals: 0 });
    expect(asg.calls.map((c) => [c.group, c.desired, c.honorCooldown, c.region, c.ok])).toEqual([
      ["train", 3, "false", "us-east-1", true],
    ]);
    expect(asg.calls[0]?.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTEST\//);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "policy.scale" } });
    expect(audit.target).toBe("asg:train");
    // the group grew to 3 = max: no further signal
    await addHost("train-3", { labels: { "gpufleet.io/asg": "train" } });
    expect(await tick(at(100), true)).toMatchObject({ signals: 0 });
    expect(asg.calls).toHaveLength(1);
  });

  it("a refused call is recorded failed and audited; the next signal waits the cool-down", async () => {
    await db.host.delete({ where: { id: hostIds["train-3"] } });
    asg.fail(1, "ValidationError");
    expect(await tick(at(110), true)).toMatchObject({ signals: 1, scaled: 0, scaleFailed: 1 });
    const newest = (await listScaleSignals(null, db)).signals[0];
    expect(newest).toMatchObject({
      state: "failed",
      detail: expect.stringContaining("ValidationError"),
    });
    expect(await db.auditEvent.count({ where: { action: "policy.scale.failed" } })).toBe(1);
    // a call that failed for good raises the policy failure alert…
    const alert = () =>
      db.alert.findFirst({
        where: { kind: "policy_action_failed" },
        orderBy: { startsAt: "desc" },
      });
    expect(await alert()).toMatchObject({
      state: "firing",
      summary: expect.stringMatching(
        /^Policy "Scale research" could not scale asg:train out to 3 after 1 attempt: .*ValidationError/,
      ),
    });
    expect(await tick(at(115), true)).toMatchObject({ signals: 0 });
    expect(await tick(at(120), true)).toMatchObject({ signals: 1, scaled: 1 });
    // …which a later signal of the pool that acted resolves
    expect((await alert())?.state).toBe("resolved");
  });

  it("a call worth retrying is tried again with backoff, holding the pool, then acts once", async () => {
    asg.fail(2, "ScalingActivityInProgress");
    const before = asg.calls.length;
    expect(await tick(at(130), true)).toMatchObject({ signals: 1, scaled: 0, scaleRetrying: 1 });
    const newest = async () => (await listScaleSignals(null, db)).signals[0];
    expect(await newest()).toMatchObject({
      state: "retrying",
      detail: expect.stringContaining("ScalingActivityInProgress"),
    });
    // the backoff is a minute, then two: nothing before, no new signal for the pool meanwhile
    expect(await tick(new Date(at(130).getTime() + 30_000), true)).toMatchObject({
      signals: 0,
      scaled: 0,
      scaleRetrying: 0,
    });
    expect(await tick(new Date(at(131).getTime() + 1_000), true)).toMatchObject({
      signals: 0,
      scaleRetrying: 1,
    });
    expect(await tick(at(133), true)).toMatchObject({ signals: 0, scaled: 0, scaleRetrying: 0 });
    expect(await tick(at(134), true)).toMatchObject({ signals: 0, scaled: 1 });
    expect(await newest()).toMatchObject({ state: "acted", toSize: 3 });
    expect(asg.calls.slice(before).map((c) => c.ok)).toEqual([false, false, true]);
    expect(await db.auditEvent.count({ where: { action: "policy.scale.retry" } })).toBe(2);
    // the alert stays resolved: these failures were worth retrying and the call acted
    expect(await db.alert.count({ where: { kind: "policy_action_failed", state: "firing" } })).toBe(
      0,
    );
  });
});
