import "../testing/no-egress.ts";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../exporter/log.ts";
import { startExporter, type RunningExporter } from "../../exporter/server.ts";
import { makeGpu, makeHost } from "../alerts/fixtures.ts";
import type { Db } from "../db.ts";
import { postJson } from "../notify/send.ts";
import { scriptedMetrics } from "../testing/scripted-metrics.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { policyInputSchema } from "../zod/schemas/policy.ts";
import { resizeOptions, scheduleResize } from "./accept-resize.ts";
import { runPolicyJob } from "./job.ts";
import { redeemKeepLink } from "./keep-link.ts";
import { listPlannedActions } from "./plan.ts";
import { policySavings } from "./savings.ts";
import { createPolicy, updatePolicy } from "./store.ts";

// Accepting a right-size recommendation by acting, on the simulated cloud (a real simulator
// exporter): the last warning, naming from and to types and the $/month saved, goes out at once
// with keep links; the policy's job resizes the host through the simulated executor after the
// grace period (power off, instance type set, power on: the simulator's gpu_host_info then says
// the new type), once; a keep link holds it back; two accepts at once make one episode. The hosts'
// GPUs stay in use throughout: a right-size does not wait for idleness.

const H = 3_600_000;
const M = 60_000;
const NOW = new Date("2026-11-20T10:00:00Z");
const AUDIT = { actor: "admin@example.com", ip: null };
const HOURLY_SAVING = 2_500_000n; // $2.50/h → $1,825.00/month
let db: Db;
let exporter: RunningExporter;
let receiver: Server;
const warnings: Record<string, unknown>[] = [];
const ids = { a: "", b: "", twin: "", kept: "", sim: "", tencent: "", dry: "" };
const warn = { send: postJson, allowPrivate: async () => true, publicUrl: "http://gpufleet.test" };
// every GPU at 30 %: in use, never idle
const metrics = scriptedMetrics(
  () => db.gpu.findMany({ select: { hostId: true, uuid: true } }),
  () => 0.3,
);
const opts = (now: Date) => ({ client: db, now, metrics, warn });
const accept = (hostId: string, policyId = ids.sim, extra = {}, now = NOW) =>
  scheduleResize(
    {
      hostId,
      policyId,
      actor: "olga@example.com",
      from: "g5.12xlarge",
      to: "g5.2xlarge",
      hourlySavingMicros: HOURLY_SAVING,
      ...extra,
    },
    null,
    opts(now),
  );
const tick = (now: Date) => runPolicyJob({ db, now, metrics }, { warn });
const simInfo = async (i: number) => {
  const body = await (await fetch(`${exporter.url}/hosts/${i}/metrics`)).text();
  return /gpu_host_info\{[^}]*instance_type="([^"]+)"/.exec(body)?.[1];
};

beforeAll(async () => {
  db = makeTestDb().db;
  exporter = await startExporter({
    listenAddress: "127.0.0.1:0",
    simulate: true,
    simulateHosts: 4,
    logger: silentLogger,
  });
  receiver = createServer((req, res) => {
    let s = "";
    req.on("data", (c: Buffer) => (s += c.toString()));
    req.on("end", () => {
      warnings.push(JSON.parse(s) as Record<string, unknown>);
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  await db.channel.create({ data: { name: "ops", kind: "webhook", url } });
  const host = async (key: keyof typeof ids, i: number, extra = {}) => {
    const h = await makeHost(db, `sim-${key}`, {
      owner: "ana",
      lastSeen: NOW,
      instanceType: "g5.12xlarge",
      region: "us-west-2",
      ...extra,
    });
    await db.host.update({
      where: { id: h.id },
      data: { origin: "demo", target: `${exporter.url}/hosts/${i}/metrics` },
    });
    ids[key] = h.id;
    for (let g = 0; g < 4; g++) await makeGpu(db, h.id, `${key}-${g}`, g);
  };
  await host("a", 1);
  await host("b", 2);
  await host("twin", 3);
  await host("kept", 0, { labels: { "gpufleet.io/keep": "true" } });
  const policy = async (name: string, executor: string, active = true) => {
    const input = { name, scopeKind: "team", scopeValue: "research", graceMinutes: 60, executor };
    const p = await createPolicy(policyInputSchema.parse(input), null, AUDIT, db);
    if (active) await updatePolicy(p.id, { mode: "active" }, null, AUDIT, db);
    return p.id;
  };
  ids.sim = await policy("Research (simulated)", "simulated");
  ids.tencent = await policy("Research (Tencent)", "tencent");
  ids.dry = await policy("Research dry run", "simulated", false);
}, 60_000);
afterAll(async () => {
  receiver.close();
  await exporter.close();
  await db.$disconnect();
});

describe("accepting a right-size recommendation resizes the host", () => {
  it("offers the covering active policies that can resize, and names those that cannot", async () => {
    const o = await resizeOptions(ids.a, null, { client: db, now: NOW });
    expect(o.policies.map((p) => p.name)).toEqual(["Research (simulated)"]);
    expect(o.cannotResize.map((p) => [p.name, p.executor])).toEqual([
      ["Research (Tencent)", "tencent"],
    ]);
  });

  it("warns now with the types and the saving, audits and lists the resize", async () => {
    const r = await accept(ids.a);
    expect(r).toMatchObject({
      created: true,
      action: "resize",
      state: "open",
      hostname: "sim-a",
      actAt: new Date(NOW.getTime() + 60 * M).toISOString(),
      resize: { from: "g5.12xlarge", to: "g5.2xlarge", monthlySavingMicros: "1825000000" },
    });
    await expect.poll(() => warnings.length, { timeout: 10_000 }).toBe(1);
    const w = warnings[0] as { text: string; policy: { action: string }; keepLinks: unknown[] };
    expect(w.text).toContain("resized from g5.12xlarge to g5.2xlarge, saving $1,825.00/month");
    expect(w.policy.action).toBe("resize");
    expect(w.keepLinks).toHaveLength(3);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "policy.accept" } });
    expect(JSON.parse(audit.detail)).toMatchObject({
      action: "resize",
      from: "g5.12xlarge",
      to: "g5.2xlarge",
    });
    const { actions } = await listPlannedActions(null, { client: db, now: NOW });
    expect(actions.filter((a) => a.hostId === ids.a)).toMatchObject([
      { action: "resize", resizeTo: "g5.2xlarge", monthlySavingMicros: "1825000000" },
    ]);
  });

  it("two accepts at once make one episode and one warning", async () => {
    const before = warnings.length;
    const [x, y] = await Promise.all([accept(ids.twin), accept(ids.twin)]);
    expect(x.episodeId).toBe(y.episodeId);
    expect([x.created, y.created].sort()).toEqual([false, true]);
    expect(await db.policyEpisode.count({ where: { hostId: ids.twin } })).toBe(1);
    await expect.poll(() => warnings.length, { timeout: 10_000 }).toBe(before + 1);
    // accepting again later answers the same episode
    expect((await accept(ids.twin, ids.sim, {}, new Date(NOW.getTime() + 5 * M))).created).toBe(
      false,
    );
  });

  it("the job resizes once after the grace period, through the simulated cloud", async () => {
    const original = await simInfo(1); // the simulator's own type for its host 1
    expect(original).toMatch(/\S/);
    expect(original).not.toBe("g5.2xlarge");
    await tick(new Date(NOW.getTime() + 30 * M));
    expect(await simInfo(1)).toBe(original);
    // busy GPUs do not close a right-size episode
    expect((await db.policyEpisode.findFirstOrThrow({ where: { hostId: ids.a } })).state).toBe(
      "open",
    );
    await tick(new Date(NOW.getTime() + 61 * M));
    expect(await simInfo(1)).toBe("g5.2xlarge");
    expect((await fetch(`${exporter.url}/hosts/1/metrics`)).status).toBe(200); // on again
    const e = await db.policyEpisode.findFirstOrThrow({ where: { hostId: ids.a } });
    expect(e).toMatchObject({ state: "closed", action: "resize", openKey: null });
    await tick(new Date(NOW.getTime() + 70 * M));
    const acts = await db.auditEvent.findMany({ where: { action: "policy.act", target: "sim-a" } });
    expect(acts).toHaveLength(1);
    expect(JSON.parse(acts[0]?.detail ?? "{}")).toMatchObject({
      action: "resize",
      from: "g5.12xlarge",
      to: "g5.2xlarge",
      executor: "simulated",
    });
    // a resize is no stop: no realized savings row
    const saved = await policySavings(null, { client: db, now: new Date(NOW.getTime() + 2 * H) });
    expect(saved.hosts.filter((h) => h.hostId === ids.a)).toEqual([]);
  });

  it("a keep link holds the resize back until the keep ends", async () => {
    const before = warnings.length;
    await accept(ids.b);
    await expect.poll(() => warnings.length, { timeout: 10_000 }).toBe(before + 1);
    const links = (warnings.at(-1) as { keepLinks: { hours: number; url: string }[] }).keepLinks;
    const eight = links.find((l) => l.hours === 8)?.url.split("/keep/")[1] ?? "";
    const kept = await redeemKeepLink(db, eight, new Date(NOW.getTime() + 10 * M), null);
    expect(kept).toMatchObject({ ok: true, hours: 8 });
    const original = await simInfo(2);
    await tick(new Date(NOW.getTime() + 2 * H));
    expect(await simInfo(2)).toBe(original);
    await tick(new Date(NOW.getTime() + 10 * M + 8 * H + M));
    expect(await simInfo(2)).toBe("g5.2xlarge");
  });

  it("refuses an executor that cannot resize, a stale type, a kept host, a dry run", async () => {
    await expect(accept(ids.twin, ids.tencent)).rejects.toThrow(
      /tencent executor, which cannot resize/,
    );
    await expect(accept(ids.kept, ids.sim, { from: "p4d.24xlarge" })).rejects.toThrow(
      /is g5.12xlarge now, not p4d.24xlarge/,
    );
    await expect(accept(ids.kept)).rejects.toThrow(/keep label/);
    await expect(accept(ids.kept, ids.dry)).rejects.toThrow(/not active/);
    expect(await db.policyEpisode.count({ where: { hostId: ids.kept } })).toBe(0);
  });
});
