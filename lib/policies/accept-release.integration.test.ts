import "../testing/no-egress.ts";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeGpu, makeHost } from "../alerts/fixtures.ts";
import type { Db } from "../db.ts";
import { postJson } from "../notify/send.ts";
import { scriptedMetrics } from "../testing/scripted-metrics.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { policyInputSchema } from "../zod/schemas/policy.ts";
import { releaseOptions, scheduleRelease } from "./accept-release.ts";
import type { ActionTarget } from "./executors/types.ts";
import { runPolicyJob } from "./job.ts";
import { listPlannedActions } from "./plan.ts";
import { createPolicy, updatePolicy } from "./store.ts";

// Accepting an idle-host recommendation with "release it": a one-host episode of the chosen active
// idle-release policy, its last warning (with keep links) sent at once, the action due after the
// grace period; the policy's own job then acts once. Accepting again makes no second episode; a
// kept, busy or uncovered host, or a dry-run policy, is refused.

const H = 3_600_000;
const M = 60_000;
const T0 = new Date("2026-11-20T00:00:00Z");
const NOW = new Date(T0.getTime() + 2 * H);
const AUDIT = { actor: "admin@example.com", ip: null };
let db: Db;
let receiver: Server;
const received: Record<string, unknown>[] = [];
const calls: ActionTarget[] = [];
const ids = { idle: "", busy: "", kept: "", other: "", active: "", dry: "", infra: "" };
const warn = { send: postJson, allowPrivate: async () => true, publicUrl: "http://gpufleet.test" };

// every GPU idle from T0, except the busy host's second GPU
const metrics = scriptedMetrics(
  () => db.gpu.findMany({ select: { hostId: true, uuid: true } }),
  (hostId, uuid, t) =>
    t < T0.getTime() ? 0.9 : hostId === ids.busy && uuid === "busy-1" ? 0.7 : 0,
);
const opts = (now: Date) => ({ client: db, now, metrics, warn });
const accept = (hostId: string, policyId: string, now = NOW) =>
  scheduleRelease({ hostId, policyId, actor: "olga@example.com" }, null, opts(now));

beforeAll(async () => {
  db = makeTestDb().db;
  receiver = createServer((req, res) => {
    let s = "";
    req.on("data", (c: Buffer) => (s += c.toString()));
    req.on("end", () => {
      received.push(JSON.parse(s) as Record<string, unknown>);
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  await db.channel.create({ data: { name: "ops", kind: "webhook", url } });
  const host = async (key: keyof typeof ids, name: string, extra = {}) => {
    const h = await makeHost(db, name, { owner: "ana", lastSeen: NOW, ...extra });
    ids[key] = h.id;
    await makeGpu(db, h.id, `${key}-0`, 0);
    await makeGpu(db, h.id, `${key}-1`, 1);
  };
  await host("idle", "idle-host");
  await host("busy", "busy-host");
  await host("kept", "kept-host", { labels: { "gpufleet.io/keep": "true" } });
  await host("other", "other-host");
  await host("infra", "infra-host", { team: "infra" });
  const policy = async (name: string, active: boolean) => {
    const input = { name, scopeKind: "team", scopeValue: "research", graceMinutes: 90 };
    const p = await createPolicy(policyInputSchema.parse(input), null, AUDIT, db);
    if (active) await updatePolicy(p.id, { mode: "active" }, null, AUDIT, db);
    return p.id;
  };
  ids.active = await policy("Idle research", true);
  ids.dry = await policy("Idle research (dry run)", false);
}, 60_000);
afterAll(async () => {
  receiver.close();
  await db.$disconnect();
});

describe("accepting an idle-host recommendation schedules its release", () => {
  it("offers the active idle-release policies that cover the host", async () => {
    const { policies } = await releaseOptions(ids.idle, null, { client: db, now: NOW });
    expect(policies.map((p) => p.name)).toEqual(["Idle research"]);
    expect((await releaseOptions(ids.infra, null, { client: db, now: NOW })).policies).toEqual([]);
    await expect(releaseOptions(ids.infra, ["research"], { client: db, now: NOW })).rejects.toThrow(
      /not found/i,
    );
  });

  it("opens one episode, warns now and acts after the grace period", async () => {
    const r = await accept(ids.idle, ids.active);
    expect(r).toMatchObject({
      created: true,
      policyName: "Idle research",
      hostname: "idle-host",
      action: "stop",
      state: "open",
      actAt: new Date(NOW.getTime() + 90 * M).toISOString(),
      recipients: [{ role: "owner", name: "ana" }],
    });
    const e = await db.policyEpisode.findUniqueOrThrow({ where: { id: r.episodeId } });
    expect(e).toMatchObject({ hostId: ids.idle, policyId: ids.active, warnings: 2 });
    expect(e.lastWarnAt).toEqual(NOW);
    // the warning went out with keep links, and the accept is audited with who and which policy
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
    expect(received[0]).toMatchObject({
      type: "gpufleet.policy.warning",
      host: { hostname: "idle-host" },
      warning: { number: 2, of: 2 },
      actAt: r.actAt,
    });
    expect((received[0]?.keepLinks as unknown[]).length).toBe(3);
    expect(await db.policyKeepLink.count({ where: { episodeId: e.id } })).toBe(3);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "policy.accept" } });
    expect(audit.actor).toBe("olga@example.com");
    expect(JSON.parse(audit.detail)).toMatchObject({ policyId: ids.active, hostId: ids.idle });
    // listed among the planned actions
    const { actions } = await listPlannedActions(null, { client: db, now: NOW });
    expect(actions.filter((a) => a.hostId === ids.idle)).toMatchObject([
      { policyId: ids.active, actAt: r.actAt, warningsSent: 2, state: "open" },
    ]);
  });

  it("accepting again returns the same episode and sends nothing", async () => {
    const again = await accept(ids.idle, ids.active, new Date(NOW.getTime() + 5 * M));
    expect(again.created).toBe(false);
    expect(await db.policyEpisode.count({ where: { hostId: ids.idle } })).toBe(1);
    expect(await db.auditEvent.count({ where: { action: "policy.accept" } })).toBe(1);
    expect(await db.auditEvent.count({ where: { action: "policy.warn" } })).toBe(1);
  });

  it("the policy's job acts once after the grace period, not before", async () => {
    const tick = (now: Date) =>
      runPolicyJob(
        { db, now, metrics },
        {
          executorFor: () => ({
            name: "recorder",
            run: async (t) => {
              calls.push(t);
              return { detail: "stopped" };
            },
          }),
          warn,
        },
      );
    await tick(new Date(NOW.getTime() + 60 * M));
    expect(calls).toEqual([]);
    await tick(new Date(NOW.getTime() + 91 * M));
    await tick(new Date(NOW.getTime() + 95 * M));
    expect(calls.map((c) => [c.hostname, c.action])).toEqual([["idle-host", "stop"]]);
    const e = await db.policyEpisode.findFirstOrThrow({ where: { hostId: ids.idle } });
    expect(e.state).toBe("acted");
  });

  it("two accepts at once make one episode and one warning", async () => {
    // a host no tick has seen yet
    const twin = (await makeHost(db, "twin-host", { owner: "ana", lastSeen: NOW })).id;
    await makeGpu(db, twin, "twin-0", 0);
    const before = received.length;
    const [a, b] = await Promise.all([accept(twin, ids.active), accept(twin, ids.active)]);
    expect(a.episodeId).toBe(b.episodeId);
    expect([a.created, b.created].sort()).toEqual([false, true]);
    expect(await db.policyEpisode.count({ where: { hostId: twin } })).toBe(1);
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(before + 1);
  });

  it("refuses a host with a keep label, a busy GPU, an uncovered host or a dry-run policy", async () => {
    await expect(accept(ids.kept, ids.active)).rejects.toThrow(/keep label gpufleet.io\/keep=true/);
    await expect(accept(ids.busy, ids.active)).rejects.toThrow(
      /not every GPU of busy-host is idle/,
    );
    await expect(accept(ids.infra, ids.active)).rejects.toThrow(/does not cover infra-host/);
    await expect(accept(ids.other, ids.dry)).rejects.toThrow(/not active/);
    await expect(accept(ids.other, "no-such-policy")).rejects.toThrow(/not found/i);
    for (const h of [ids.kept, ids.busy, ids.infra]) {
      const live = await db.policyEpisode.count({ where: { hostId: h, policyId: ids.active } });
      expect(live).toBe(0);
    }
  });
});
