import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeGpu, makeHost } from "../alerts/fixtures.ts";
import type { Db } from "../db.ts";
import { installShippedCatalogue } from "../pricing/seed.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { scriptedMetrics } from "../testing/scripted-metrics.ts";
import { policyInputSchema } from "../zod/schemas/policy.ts";
import { runPolicyJob } from "./job.ts";
import { listPlannedActions } from "./plan.ts";
import { createPolicy, updatePolicy } from "./store.ts";

// A dry-run idle-release policy on a small simulated fleet with a pinned clock: it lists the
// wholly idle host only (not the partly idle one, not the opted-out one, not the spot host whose
// reclaim is announced), with when it would act and the $ it would save; a GPU that works again
// closes the episode.

const H = 3_600_000;
const T0 = new Date("2026-11-20T12:00:00Z");
const IDLE_FROM = T0.getTime() - 30 * H;
const AUDIT = { actor: "admin@example.com", ip: null };
let db: Db;
let busyAgainAt = Infinity;
const ids: Record<string, string> = {};

// util per GPU: "idle" hosts under 1 % since IDLE_FROM; "partly" has one busy GPU
function util(hostId: string, uuid: string, t: number): number | null {
  if (hostId === ids.busy) return 0.9;
  if (uuid.endsWith("-1") && hostId === ids.partly) return 0.7;
  if (hostId === ids.idle && t >= busyAgainAt) return 0.6;
  return t >= IDLE_FROM ? 0.01 : 0.8;
}

async function fleetGpus() {
  return db.gpu.findMany({ select: { hostId: true, uuid: true } });
}
const metrics = () => scriptedMetrics(fleetGpus, util);

beforeAll(async () => {
  db = makeTestDb().db;
  await installShippedCatalogue(db);
  for (const [name, extra] of [
    ["idle", {}],
    ["partly", {}],
    ["busy", {}],
    ["kept", { labels: { "gpufleet.io/keep": "true" } }],
    ["spot", { pricingModel: "spot" }],
  ] as const) {
    const h = await makeHost(db, name, { ...extra, lastSeen: T0 });
    ids[name] = h.id;
    await makeGpu(db, h.id, `${name}-0`, 0);
    await makeGpu(db, h.id, `${name}-1`, 1);
  }
  await db.host.update({ where: { id: ids.spot }, data: { interruptionPending: true } });
});
afterAll(async () => db.$disconnect());

describe("a dry-run idle-release policy", () => {
  it("is created in dry run with the issue's defaults", async () => {
    const p = await createPolicy(policyInputSchema.parse({ name: "Idle 24h" }), null, AUDIT, db);
    expect(p).toMatchObject({
      mode: "dry_run",
      action: "stop",
      idleHours: 24,
      warnAt: [0.5, 0.9],
      optOutLabel: "gpufleet.io/keep=true",
      executor: "simulated",
    });
    const audit = await db.auditEvent.findMany({ where: { action: "policy.create" } });
    expect(audit).toHaveLength(1);
  });

  it("lists the wholly idle host only, with when and the $ it would save", async () => {
    const r = await runPolicyJob({ db, now: T0, metrics: metrics() });
    expect(r.opened).toBe(1);
    const { actions } = await listPlannedActions(null, { client: db, now: T0 });
    expect(actions.map((a) => a.hostname)).toEqual(["idle"]);
    const a = actions[0];
    if (!a) throw new Error("no planned action");
    // idle over the whole 24 h window: idle since T0 − 24 h at least, so it would act now
    expect(a.idleSince).toBe(new Date(T0.getTime() - 24 * H).toISOString());
    expect(a.actAt).toBe(T0.toISOString());
    expect(a).toMatchObject({ mode: "dry_run", action: "stop", state: "open", warningsSent: 0 });
    expect(a.hourlyMicros).not.toBeNull();
    expect(BigInt(a.monthlySavingMicros ?? "0")).toBe(BigInt(a.hourlyMicros ?? "1") * 730n);
  });

  it("takes nothing again on the next tick, and sends no warning in dry run", async () => {
    const r = await runPolicyJob({ db, now: new Date(T0.getTime() + 60_000), metrics: metrics() });
    expect(r).toMatchObject({ opened: 0, closed: 0, resumed: 0, warned: 0, acted: 0 });
    const e = await db.policyEpisode.findMany();
    expect(e).toHaveLength(1);
    expect(e[0]).toMatchObject({ warnings: 0, state: "open", actedAt: null });
  });

  it("a host idle for less than the window is backdated to the warning window it fits", async () => {
    await db.policyEpisode.deleteMany();
    const now = new Date(IDLE_FROM + 13 * H); // idle 13 h: over the 50 % window (12 h)
    await runPolicyJob({ db, now, metrics: metrics() });
    const { actions } = await listPlannedActions(null, { client: db, now });
    expect(actions[0]?.idleSince).toBe(new Date(now.getTime() - 12 * H).toISOString());
    expect(actions[0]?.actAt).toBe(new Date(now.getTime() + 12 * H).toISOString());
  });

  it("closes the episode when a GPU works again", async () => {
    busyAgainAt = T0.getTime() + H;
    const r = await runPolicyJob({ db, now: new Date(T0.getTime() + 2 * H), metrics: metrics() });
    expect(r.closed).toBe(1);
    expect((await listPlannedActions(null, { client: db })).actions).toEqual([]);
  });

  it("switching to active is audited as a mode change", async () => {
    const p = await db.policy.findFirstOrThrow();
    const u = await updatePolicy(p.id, { mode: "active" }, null, AUDIT, db);
    expect(u.mode).toBe("active");
    expect(await db.auditEvent.count({ where: { action: "policy.mode.active" } })).toBe(1);
  });

  it("a team-limited admin sees no fleet policy and cannot create one", async () => {
    const input = policyInputSchema.parse({ name: "Fleet 2" });
    await expect(createPolicy(input, ["research"], AUDIT, db)).rejects.toThrow(/own teams/);
    const team = policyInputSchema.parse({ name: "T", scopeKind: "team", scopeValue: "research" });
    const p = await createPolicy(team, ["research"], AUDIT, db);
    expect(p.scopeValue).toBe("research");
  });

  it("refuses bad input with a clear message", () => {
    const r = policyInputSchema.safeParse({ name: "x", executor: "webhook", scopeKind: "label" });
    expect(r.success).toBe(false);
    const messages = (r.error?.issues ?? []).map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(messages).toContain("webhookUrl: the webhook executor needs a URL");
    expect(messages).toContain("scopeValue: name the label");
  });
});
