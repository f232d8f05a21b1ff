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
import { policySavings, savedMicros } from "./savings.ts";
import { createPolicy, updatePolicy } from "./store.ts";

// One whole episode of an ACTIVE idle-release policy on a pinned clock, with the AWS executor's
// real SDK against a local EC2 endpoint and the warnings through a real webhook channel to a local
// receiver: warn at 50 %, warn at 90 %, a keep link from the second warning extends by 8 h, the
// first StopInstances call is throttled (retried after backoff), the second stops the host, and
// nothing is called again. A second policy whose calls always fail ends "failed" with an alert.

const H = 3_600_000;
const M = 60_000;
const T0 = new Date("2026-11-20T00:00:00Z");
const AUDIT = { actor: "admin@example.com", ip: null };
const INSTANCE = "i-0abc1234def567890";
let db: Db;
let ec2: FakeEc2;
let receiver: Server;
let hookUrl = "";
const received: { at: Date; body: Record<string, unknown> }[] = [];
const hosts: Record<string, string> = {};

const util = (_h: string, _u: string, t: number) => (t >= T0.getTime() ? 0.0 : 0.9);
const metrics = scriptedMetrics(
  () => db.gpu.findMany({ select: { hostId: true, uuid: true } }),
  util,
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

beforeAll(async () => {
  db = makeTestDb().db;
  await installShippedCatalogue(db);
  ec2 = await startFakeEc2();
  receiver = createServer((req, res) => {
    let s = "";
    req.on("data", (c: Buffer) => (s += c.toString()));
    req.on("end", () => {
      received.push({ at: new Date(), body: JSON.parse(s) as Record<string, unknown> });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  await db.channel.create({ data: { name: "ops", kind: "webhook", url: hookUrl } });
  const h = await makeHost(db, "gpu-a", { owner: "ana", lastSeen: T0 });
  await db.host.update({ where: { id: h.id }, data: { instanceId: INSTANCE } });
  hosts.a = h.id;
  await makeGpu(db, h.id, "a-0", 0);
  await makeGpu(db, h.id, "a-1", 1);
  const p = await createPolicy(
    policyInputSchema.parse({
      name: "Idle 24h",
      executor: "aws",
      scopeKind: "team",
      scopeValue: "research",
    }),
    null,
    AUDIT,
    db,
  );
  await updatePolicy(p.id, { mode: "active" }, null, AUDIT, db);
});
afterAll(async () => {
  receiver.close();
  await ec2.close();
  await db.$disconnect();
});

describe("an active idle-release policy, one episode", () => {
  const log: string[] = [];
  const note = (t: Date, what: string) => log.push(`${t.toISOString()}  ${what}`);

  it("opens the episode when every GPU is idle, and warns at 50 % and 90 % of 24 h", async () => {
    expect((await tick(at(30 * M))).opened).toBe(1);
    expect((await tick(at(12 * H - 2 * M))).warned).toBe(0);
    const w1 = at(12 * H + 1 * M);
    expect((await tick(w1)).warned).toBe(1);
    note(w1, "warning 1 of 2 sent");
    expect((await tick(at(12 * H + 2 * M))).warned).toBe(0); // never twice
    const w2 = at(21.6 * H + 1 * M);
    expect((await tick(w2)).warned).toBe(1);
    note(w2, "warning 2 of 2 sent");
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(2);
    const second = received[1]?.body;
    expect(second).toMatchObject({
      type: "gpufleet.policy.warning",
      host: { hostname: "gpu-a" },
      recipients: [{ role: "owner", name: "ana" }],
      warning: { number: 2, of: 2 },
    });
    expect(await db.auditEvent.count({ where: { action: "policy.warn" } })).toBe(2);
  });

  it("a keep link for 8 h moves the stop; it works once and only as signed", async () => {
    const links = received[1]?.body.keepLinks as { hours: number; url: string }[];
    expect(links.map((l) => l.hours)).toEqual([4, 8, 24]);
    const token = (links[1]?.url ?? "").split("/keep/")[1] ?? "";
    const k = at(22 * H);
    const forged = `${token.slice(0, -2)}${token.endsWith("AA") ? "AB" : "AA"}`;
    const bad = await redeemKeepLink(db, forged, k, "203.0.113.9");
    expect(bad).toEqual({ ok: false, message: expect.stringContaining("not valid") });
    const r = await redeemKeepLink(db, token, k, "203.0.113.9");
    expect(r).toMatchObject({ ok: true, hostname: "gpu-a", hours: 8 });
    note(k, "keep link (8 h) followed: kept until " + at(30 * H).toISOString());
    expect(await redeemKeepLink(db, token, k, null)).toMatchObject({ ok: false });
    // the other links of the episode are spent with it
    const other = (links[0]?.url ?? "").split("/keep/")[1] ?? "";
    expect(await redeemKeepLink(db, other, k, null)).toMatchObject({ ok: false });
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "policy.keep" } });
    expect(audit).toMatchObject({ actor: "keep-link", target: "gpu-a", ip: "203.0.113.9" });
    // at 24 h the keep holds: no call
    expect((await tick(at(24 * H + M))).acted).toBe(0);
    expect(ec2.calls).toHaveLength(0);
  });

  it("stops the host once after the keep: a throttled call is retried after backoff", async () => {
    ec2.fail(1);
    const first = at(30 * H + M);
    expect(await tick(first)).toMatchObject({ acted: 0, retrying: 1 });
    note(first, `StopInstances → ${ec2.calls[0]?.ok ? "ok" : "RequestLimitExceeded (503), retry"}`);
    expect((await tick(at(30 * H + 3 * M))).acted).toBe(0); // backoff not over
    const second = at(30 * H + 7 * M);
    expect((await tick(second)).acted).toBe(1);
    note(second, "StopInstances → stopping");
    expect(ec2.calls.map((c) => [c.action, c.instanceId, c.region, c.ok])).toEqual([
      ["StopInstances", INSTANCE, "us-east-1", false],
      ["StopInstances", INSTANCE, "us-east-1", true],
    ]);
    expect(ec2.calls[1]?.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTEST\//);
    for (let i = 1; i <= 3; i++) await tick(at(31 * H + i * H));
    expect(ec2.calls).toHaveLength(2);
    const e = await db.policyEpisode.findFirstOrThrow();
    expect(e).toMatchObject({ state: "acted", action: "stop", attempts: 2 });
    expect(await db.auditEvent.count({ where: { action: "policy.act" } })).toBe(1);
    console.log(`episode walk-through (pinned clock):\n${log.join("\n")}`);
  });

  it("closes the episode when the host answers again", async () => {
    await db.host.update({ where: { id: hosts.a }, data: { lastSeen: at(40 * H), state: "up" } });
    expect((await tick(at(40 * H))).resumed).toBe(1);
  });

  it("counts the stopped hours and the money not spent, within the month", async () => {
    const e = await db.policyEpisode.findFirstOrThrow({ where: { hostId: hosts.a } });
    const hourly = e.hourlyMicros ?? 0n;
    expect(hourly).toBeGreaterThan(0n);
    const s = await policySavings(null, { month: "2026-11", now: at(50 * H), client: db });
    const stoppedMs = 40 * H - (30 * H + 7 * M);
    expect(s.hosts).toEqual([
      {
        hostId: hosts.a,
        hostname: "gpu-a",
        stoppedHours: 9.88,
        savedMicros: savedMicros(hourly, stoppedMs).toString(),
        stoppedAt: at(30 * H + 7 * M).toISOString(),
        resumedAt: at(40 * H).toISOString(),
      },
    ]);
    expect(BigInt(s.savedMicros)).toBe((hourly * BigInt(stoppedMs)) / BigInt(H));
    expect(
      (await policySavings(null, { month: "2026-10", now: at(50 * H), client: db })).hosts,
    ).toEqual([]);
    expect((await policySavings(["other-team"], { month: "2026-11", client: db })).hosts).toEqual(
      [],
    );
  });
});

describe("a failing action", () => {
  it("retries with backoff, then marks the episode failed and raises an alert", async () => {
    await db.policy.deleteMany();
    const h = await makeHost(db, "gpu-b", { owner: "bo", lastSeen: T0 });
    await db.host.update({ where: { id: h.id }, data: { instanceId: "i-0bbbbbbbbbbbbbbbb" } });
    await makeGpu(db, h.id, "b-0", 0);
    await db.gpu.deleteMany({ where: { hostId: hosts.a } });
    const p = await createPolicy(
      policyInputSchema.parse({ name: "Fast", executor: "aws", idleHours: 1, graceMinutes: 0 }),
      null,
      AUDIT,
      db,
    );
    await updatePolicy(p.id, { mode: "active" }, null, AUDIT, db);
    ec2.fail(100);
    const base = T0.getTime() + 50 * H;
    const t = (m: number) => new Date(base + m * M);
    for (const m of [0, 31, 55, 61, 70, 80, 100]) await tick(t(m));
    const e = await db.policyEpisode.findFirstOrThrow({ where: { hostId: h.id } });
    expect(e).toMatchObject({ state: "failed", attempts: 3 });
    expect(e.lastError).toContain("RequestLimitExceeded");
    const alert = await db.alert.findFirstOrThrow({ where: { kind: "policy_action_failed" } });
    expect(alert).toMatchObject({ state: "firing", hostId: h.id, severity: "critical" });
    expect(
      await db.auditEvent.count({ where: { action: "policy.act.retry", target: "gpu-b" } }),
    ).toBe(2);
    expect(await db.auditEvent.count({ where: { action: "policy.act.failed" } })).toBe(1);
    // once the host is no longer idle here (a spot reclaim is announced), the episode closes and
    // the alert resolves
    await db.host.update({ where: { id: h.id }, data: { interruptionPending: true } });
    await tick(t(110));
    expect(await db.policyEpisode.findFirstOrThrow({ where: { id: e.id } })).toMatchObject({
      state: "closed",
    });
    const after = await db.alert.findUniqueOrThrow({ where: { id: alert.id } });
    expect(after.state).toBe("resolved");
  });
});
