import "../testing/no-egress.ts";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeGpu, makeHost } from "../alerts/fixtures.ts";
import type { Holder } from "../core/holders.ts";
import type { Db } from "../db.ts";
import type { HostSample, MetricsSource, SamplesByHost } from "../metrics/source.ts";
import { postJson } from "../notify/send.ts";
import { installShippedCatalogue } from "../pricing/seed.ts";
import { scriptedMetrics } from "../testing/scripted-metrics.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { policyInputSchema } from "../zod/schemas/policy.ts";
import { loadEvalHosts } from "./evaluate.ts";
import {
  SIGNATURE_HEADER,
  signWebhook,
  TIMESTAMP_HEADER,
  webhookExecutor,
} from "./executors/webhook.ts";
import { runPolicyJob } from "./job.ts";
import { redeemKeepLink } from "./keep-link.ts";
import { listPlannedActions } from "./plan.ts";
import { createPolicy, updatePolicy } from "./store.ts";

// A maximum-run-time policy per Slurm job (24 h) on a pinned clock, with holder minutes from a
// script: alice's job 4242 on 2 of gpu-aws-use1-003's 8 GPUs since 26 h ago and bob's job 777 on
// one since 2 h ago (two runs on one host: two episodes); carol's job on an opted-out host. Dry
// run lists job 4242 with when it would cancel it and its share of the host's price; active warns
// alice (not bob) and the owner with keep links; an 8 h keep holds it; then the signed webhook
// gets cancel_job once, verified by a local receiver that ends the job as a scancel wrapper would;
// its episode closes once the job is gone. A cloud executor for jobs is refused by the schema.

const H = 3_600_000;
const M = 60_000;
const T0 = new Date("2026-11-20T12:00:00Z");
const SECRET = "job-runtime-test-secret";
const AUDIT = { actor: "admin@example.com", ip: null };
const HOST = "gpu-aws-use1-003";

let db: Db;
let receiver: Server;
let base = "";
let policyId = "";
const ids = { a: "", kept: "" };
const warnings: Record<string, unknown>[] = [];
const acts: { headers: IncomingHttpHeaders; body: string }[] = [];
/** jobs the receiver cancelled: the script stops showing them from then */
const cancelled = new Map<string, number>();

const job = (ref: string, user: string, account: string | null = null): Holder => ({
  user,
  kind: "job",
  ref,
  name: null,
  namespace: null,
  account,
});
const RUNS = [
  { host: "a", holder: job("4242", "alice", "ml"), gpus: [0, 1], since: T0.getTime() - 26 * H },
  { host: "a", holder: job("777", "bob"), gpus: [2], since: T0.getTime() - 2 * H },
  { host: "kept", holder: job("9", "carol"), gpus: [0], since: T0.getTime() - 40 * H },
] as const;

/** One answered sample per host per minute in [from, to), holders as the script says. */
async function hourSamples(from: Date, to: Date): Promise<SamplesByHost> {
  const out: SamplesByHost = new Map();
  const start = Math.ceil(from.getTime() / M) * M;
  for (const key of ["a", "kept"] as const) {
    const list: HostSample[] = [];
    for (let t = start; t < to.getTime(); t += M) {
      const gpus = Array.from({ length: 8 }, (_, i) => {
        const holders = RUNS.filter(
          (r) =>
            r.host === key &&
            (r.gpus as readonly number[]).includes(i) &&
            t >= r.since &&
            t < (cancelled.get(r.holder.ref) ?? Infinity),
        ).map((r) => ({ holder: r.holder, memBytes: 30e9 }));
        return {
          uuid: `${key}-${i}`,
          model: "NVIDIA A100-SXM4-40GB",
          util: holders.length > 0 ? 0.95 : 0,
          memUsedBytes: holders.length * 30e9,
          memTotalBytes: 40e9,
          processes: holders.length,
          holders,
        };
      });
      list.push({ t: new Date(t), up: true, gpus });
    }
    out.set(ids[key], list);
  }
  return out;
}

const metrics: MetricsSource = {
  ...scriptedMetrics(
    () => db.gpu.findMany({ select: { hostId: true, uuid: true } }),
    () => 0.95,
  ),
  hourSamples,
};

function tick(now: Date) {
  return runPolicyJob(
    { db, now, metrics },
    {
      executorFor: (p) =>
        webhookExecutor({
          url: p.webhookUrl ?? "",
          secret: SECRET,
          allowPrivate: async () => true,
        }),
      warn: { send: postJson, allowPrivate: async () => true, publicUrl: "http://gpufleet.test" },
      maxAttempts: 3,
      baseDelayMs: 5 * M,
      maxDelayMs: 30 * M,
      claimTtlMs: 5 * M,
    },
  );
}

let clock = T0.getTime();
const at = (ms: number) => new Date(T0.getTime() + ms);

beforeAll(async () => {
  db = makeTestDb().db;
  await installShippedCatalogue(db);
  receiver = createServer((req, res) => {
    let s = "";
    req.on("data", (c: Buffer) => (s += c.toString()));
    req.on("end", () => {
      if (req.url === "/act") {
        acts.push({ headers: req.headers, body: s });
        const body = JSON.parse(s) as { job?: { id: string } };
        // a scancel wrapper: the job ends now
        if (body.job) cancelled.set(body.job.id, clock);
      } else warnings.push(JSON.parse(s) as Record<string, unknown>);
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  await db.channel.create({ data: { name: "ops", kind: "webhook", url: `${base}/hook` } });
  const a = await makeHost(db, HOST, { owner: "ana", lastSeen: T0 });
  const kept = await makeHost(db, "gpu-kept", {
    lastSeen: T0,
    labels: { "gpufleet.io/keep": "true" },
  });
  ids.a = a.id;
  ids.kept = kept.id;
  for (let i = 0; i < 8; i++) {
    await makeGpu(db, a.id, `a-${i}`, i);
    await makeGpu(db, kept.id, `kept-${i}`, i);
  }
});
afterAll(async () => {
  receiver.close();
  await db.$disconnect();
});

describe("a maximum-run-time policy per Slurm job", () => {
  const START = new Date(T0.getTime() - 26 * H);

  it("refuses a cloud executor, a host's action, and a target other than max_runtime", () => {
    const bad = policyInputSchema.safeParse({
      name: "jobs",
      kind: "max_runtime",
      target: "job",
      action: "cancel_job",
      executor: "aws",
    });
    expect(bad.success).toBe(false);
    const issue = bad.error?.issues.find((i) => i.path[0] === "executor");
    expect(issue?.message).toMatch(/cloud's instance API \(aws\) cannot end a Slurm job/);
    const stop = policyInputSchema.safeParse({
      name: "pods",
      kind: "max_runtime",
      target: "pod",
      action: "stop",
      executor: "webhook",
      webhookUrl: "http://127.0.0.1:1/x",
    });
    expect(stop.error?.issues.map((i) => [i.path[0], i.message])).toEqual([
      ["action", "a pod's run ends with delete_pod"],
    ]);
    const idle = policyInputSchema.safeParse({
      name: "idle jobs",
      kind: "idle_release",
      target: "job",
      action: "cancel_job",
      executor: "simulated",
    });
    expect(idle.error?.issues.map((i) => i.path[0])).toEqual(["target"]);
  });

  it("dry run lists each job on its own with its share of the host's price", async () => {
    const p = await createPolicy(
      policyInputSchema.parse({
        name: "Jobs at most 24h",
        kind: "max_runtime",
        target: "job",
        action: "cancel_job",
        idleHours: 24,
        executor: "webhook",
        webhookUrl: `${base}/act`,
      }),
      null,
      AUDIT,
      db,
    );
    policyId = p.id;
    expect(p).toMatchObject({ target: "job", action: "cancel_job", mode: "dry_run" });
    // two jobs on one host: two episodes; the opted-out host's job: none
    expect(await tick(T0)).toMatchObject({ opened: 2 });
    const { actions } = await listPlannedActions(null, { client: db, now: T0 });
    expect(actions.map((a) => [a.run?.label, a.hostname, a.idleSince])).toEqual([
      ["job 4242 (alice)", HOST, START.toISOString()],
      ["job 777 (bob)", HOST, at(-2 * H).toISOString()],
    ]);
    const hourly = (await loadEvalHosts(db, T0)).get(ids.a)?.hourlyMicros ?? 0n;
    expect(hourly).toBeGreaterThan(0n);
    expect(actions[0]).toMatchObject({
      action: "cancel_job",
      mode: "dry_run",
      // 24 h after its start, the 90 % warning's grace long over
      actAt: new Date(START.getTime() + 24 * H).toISOString(),
      run: { kind: "job", ref: "4242", user: "alice", account: "ml", gpus: 2 },
      hourlyMicros: ((hourly * 2n + 4n) / 8n).toString(),
      monthlySavingMicros: (((hourly * 2n + 4n) / 8n) * 730n).toString(),
    });
    // in dry run nothing is sent or called
    expect(await tick(at(M))).toMatchObject({ warned: 0, acted: 0, opened: 0, closed: 0 });
    expect(warnings).toHaveLength(0);
    expect(acts).toHaveLength(0);
  });

  it("active: warns the job's user and the owner, a keep link holds it, then cancels once", async () => {
    await updatePolicy(policyId, { mode: "active" }, null, AUDIT, db);
    clock = at(2 * M).getTime();
    // 26 h in: both warnings are due for job 4242, one message; job 777 is 2 h in
    expect((await tick(at(2 * M))).warned).toBe(1);
    await expect.poll(() => warnings.length, { timeout: 10_000 }).toBe(1);
    expect(warnings[0]).toMatchObject({
      type: "gpufleet.policy.warning",
      policy: { kind: "max_runtime", action: "cancel_job" },
      host: { hostname: HOST },
      run: { label: "job 4242 (alice)", ref: "4242" },
      recipients: [
        { role: "owner", name: "ana" },
        { role: "holder", name: "alice" },
      ],
      warning: { number: 2, of: 2 },
    });
    expect(warnings[0]?.text).toContain(`job 4242 (alice) on ${HOST}: running 26 h`);
    expect(warnings[0]?.text).toContain("It will be cancelled at");
    const links = warnings[0]?.keepLinks as { hours: number; url: string }[];
    const eight = links.find((l) => l.hours === 8)?.url.split("/keep/")[1] ?? "";
    const k = at(10 * M);
    expect(await redeemKeepLink(db, eight, k, null)).toMatchObject({
      ok: true,
      hours: 8,
      run: "job 4242 (alice)",
      hostname: HOST,
    });
    expect((await tick(at(2 * H))).acted).toBe(0);
    expect(acts).toHaveLength(0);

    const after = new Date(k.getTime() + 8 * H + M);
    clock = after.getTime();
    expect(await tick(after)).toMatchObject({ acted: 1 });
    expect(await tick(new Date(after.getTime() + M))).toMatchObject({ acted: 0 });
    expect(acts).toHaveLength(1);
    const req = acts[0];
    const ts = Number(req?.headers[TIMESTAMP_HEADER]);
    expect(req?.headers[SIGNATURE_HEADER]).toBe(signWebhook(SECRET, ts, req?.body ?? ""));
    const body = JSON.parse(req?.body ?? "{}") as Record<string, unknown>;
    expect(body).toMatchObject({
      type: "gpufleet.policy.cancel_job",
      action: "cancel_job",
      policyId,
      hostname: HOST,
      provider: "aws",
      region: "us-east-1",
      runningSince: START.toISOString(),
      gpus: 2,
      job: { id: "4242", user: "alice", account: "ml", cluster: null },
      pod: null,
    });
    expect(req?.headers["idempotency-key"]).toBe(`${String(body.episodeId)}:cancel_job`);
    const audit = await db.auditEvent.findMany({ where: { action: "policy.act" } });
    expect(audit.map((a) => [a.target, JSON.parse(a.detail ?? "{}").run])).toEqual([
      [HOST, "job 4242 (alice)"],
    ]);
    // bob's job was never warned: it is 12 h in only at T0 + 10 h
    expect(warnings).toHaveLength(1);
  });

  it("the cancelled job's episode closes once it is gone; bob's stays", async () => {
    const later = new Date(clock + 7 * M);
    expect((await tick(later)).closed).toBe(1);
    const eps = await db.policyEpisode.findMany({ orderBy: { idleSince: "asc" } });
    expect(eps.map((e) => [JSON.parse(e.holder ?? "{}").ref, e.state, e.action])).toEqual([
      ["4242", "closed", "cancel_job"],
      ["777", "open", null],
    ]);
    // a job's cancel leaves the host running: no realized savings, no host stop
    expect(await db.policyEpisode.count({ where: { hostId: ids.kept } })).toBe(0);
  });
});
