import "../testing/no-egress.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../exporter/log.ts";
import { SimulatedSource } from "../../exporter/collectors/simulated.ts";
import { startExporter, type RunningExporter } from "../../exporter/server.ts";
import { buildFleet } from "../../exporter/sim/fleet.ts";
import type { Db } from "../db.ts";
import { createEmbeddedSource } from "../metrics/embedded/source.ts";
import { runPolicyJob } from "../policies/job.ts";
import { listPlannedActions } from "../policies/plan.ts";
import { createPolicy, updatePolicy } from "../policies/store.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { policyInputSchema } from "../zod/schemas/policy.ts";
import { DEMO_SEED, seedDemo } from "./seed.ts";

// Maximum run time per Slurm job on the demo: a seeded store whose minutes carry the simulator's
// holders (the Slurm hosts run dave's and erin's jobs) and the simulator exporter running. A job
// policy lists each Slurm job with its share of the host's price from the first tick; made
// active on the simulated cloud it warns, then ends one job at the simulator, which stops
// attributing it (its processes gone from the host's exposition), and no host is stopped.

const NOW = new Date("2026-11-15T12:00:00Z");
const at = (min: number) => new Date(NOW.getTime() + min * 60_000);
const AUDIT = { actor: "admin@example.com", ip: null };
let db: Db;
let exporter: RunningExporter;

beforeAll(async () => {
  const t = makeTestDb();
  db = t.db;
  exporter = await startExporter({
    listenAddress: "127.0.0.1:0",
    simulate: true,
    simulateHosts: 24,
    // no scheduled collection: the test collects a host itself at the store's pinned time
    intervalMs: 3_600_000,
    logger: silentLogger,
  });
  await seedDemo(db, {
    exporterBase: exporter.url,
    databaseUrl: t.url,
    hosts: 24,
    now: NOW,
    historyDays: 1,
    chartDays: 1,
  });
  // the demo's own idle-release policies are not what this test is about
  await db.policy.updateMany({ data: { enabled: false } });
  // the collector's first scrape marks the seeded hosts up (a job runs on a host that answers)
  await db.host.updateMany({ data: { state: "up", lastSeen: NOW } });
}, 240_000);
afterAll(async () => {
  await exporter.close();
  await db.$disconnect();
});

const fleet = buildFleet({ seed: DEMO_SEED, hosts: 24 });

/** The Slurm job ids simulator host `i`'s processes carry in a collection at time `t`. */
async function jobsAt(i: number, t: Date): Promise<string[]> {
  const source = exporter.source;
  const host = exporter.hosts[i];
  const spec = fleet.hosts[i];
  if (!(source instanceof SimulatedSource) || !host || !spec) throw new Error(`no host ${i}`);
  await source.collectHost(host, spec, t.getTime(), false);
  const procs = host.state.view(t.getTime()).processes ?? [];
  return [...new Set(procs.flatMap((p) => (p.holder?.slurmJobId ? [p.holder.slurmJobId] : [])))];
}

describe("a job run-time policy on the demo", () => {
  const tick = (now: Date) => runPolicyJob({ db, now, metrics: createEmbeddedSource(db, 15) });
  let policyId = "";

  it("lists each Slurm job from the first tick, priced at its share of its host", async () => {
    const p = await createPolicy(
      policyInputSchema.parse({
        name: "Jobs at most 2h",
        kind: "max_runtime",
        target: "job",
        action: "cancel_job",
        idleHours: 2,
        graceMinutes: 1,
        executor: "simulated",
      }),
      null,
      AUDIT,
      db,
    );
    policyId = p.id;
    const r = await tick(NOW);
    expect(r.opened).toBeGreaterThan(0);
    const { actions } = await listPlannedActions(null, { client: db, now: NOW });
    expect(actions.length).toBe(r.opened);
    for (const a of actions) {
      expect(a).toMatchObject({ kind: "max_runtime", action: "cancel_job", mode: "dry_run" });
      expect(a.run?.kind).toBe("job");
      expect(a.run?.label).toMatch(/^job \d+ \((dave|erin)\)$/);
      expect(BigInt(a.hourlyMicros ?? "0")).toBeGreaterThan(0n);
      expect(new Date(a.idleSince).getTime()).toBeLessThan(NOW.getTime());
    }
  });

  it("active: warns, then ends one job at the simulator, which stops attributing it", async () => {
    await updatePolicy(policyId, { mode: "active" }, null, AUDIT, db);
    // the longest-running job first: warned now, ended once its grace has passed
    const { actions } = await listPlannedActions(null, { client: db, now: NOW });
    const first = actions.find((a) => new Date(a.actAt) <= at(3));
    expect(first).toBeDefined();
    const host = await db.host.findUniqueOrThrow({ where: { id: first?.hostId ?? "" } });
    const target = host.target ?? "";
    const i = Number(/\/hosts\/(\d+)\/metrics$/.exec(target)?.[1]);
    // the simulator runs the job the store saw at that time
    expect(await jobsAt(i, at(1))).toContain(first?.run?.ref);

    const warned = await tick(at(1));
    expect(warned.warned).toBeGreaterThan(0);
    const acted = await tick(at(3));
    expect(acted.acted).toBeGreaterThan(0);
    const e = await db.policyEpisode.findFirstOrThrow({
      where: { policyId, hostId: host.id, state: "acted" },
    });
    expect(e).toMatchObject({ action: "cancel_job", holderKind: "job" });
    const ended = JSON.parse(e.holder ?? "{}") as { ref: string };
    expect(ended.ref).toBe(first?.run?.ref);
    // the simulator no longer runs (nor attributes) the ended job
    expect(await jobsAt(i, at(4))).not.toContain(ended.ref);
    // the host itself keeps running: a job's end is no host stop
    expect((await fetch(target)).status).toBe(200);
    const audit = await db.auditEvent.findFirstOrThrow({
      where: { action: "policy.act", target: host.hostname },
    });
    expect(JSON.parse(audit.detail ?? "{}")).toMatchObject({
      action: "cancel_job",
      result: `cancel_job: simulated job ${ended.ref} ended`,
    });
  });
});
