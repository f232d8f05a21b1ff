import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import { installShippedCatalogue } from "../pricing/seed.ts";
import { makeTestDb, testDbKind } from "../testing/test-db.ts";
import { floorHour } from "../ledger/job.ts";

// Two collector processes on one database (SQLite, and PostgreSQL in the "postgres" project):
// minute data for closed hours is already stored, each writes one ledger hour per 1 s tick while
// it holds the lease. The leader is SIGKILLed after two hours; the other must take over within a
// minute (the lease expires 3 intervals + 10 s after its last renewal) and finish the ledger with
// every host-hour written exactly once.

const HOSTS = 4;
const GPUS = 8;
const HOURS = 6;
const HOUR = 3_600_000;
const WORKER = fileURLToPath(new URL("../testing/workers/failover-worker.ts", import.meta.url));

interface Replica {
  proc: ChildProcess;
  holder: string;
  stderr: string[];
}

let db: Db;
let url: string;
const replicas: Replica[] = [];
const lastHour = floorHour(Date.now()) - HOUR;
const hours = Array.from({ length: HOURS }, (_, i) => new Date(lastHour - (HOURS - 1 - i) * HOUR));

async function seedMinutes(): Promise<void> {
  await installShippedCatalogue(db);
  const from = hours[0]?.getTime() ?? 0;
  for (let h = 0; h < HOSTS; h++) {
    const host = await db.host.create({
      data: {
        hostname: `failover-${h}`,
        provider: "aws",
        instanceType: "p4d.24xlarge",
        region: "us-east-1",
        state: "up",
      },
    });
    const uuids = Array.from({ length: GPUS }, (_, g) => `GPU-failover-${h}-${g}`);
    await db.gpu.createMany({
      data: uuids.map((uuid, g) => ({
        hostId: host.id,
        uuid,
        index: g,
        name: "NVIDIA A100-SXM4-40GB",
        memoryTotalBytes: 40n * 1024n ** 3n,
      })),
    });
    const minutes = Array.from({ length: HOURS * 60 }, (_, m) => new Date(from + m * 60_000));
    await db.hostMinute.createMany({
      data: minutes.map((minuteStart) => ({
        hostId: host.id,
        minuteStart,
        samples: 4,
        upSamples: 4,
      })),
    });
    await db.gpuMinute.createMany({
      data: minutes.flatMap((minuteStart, m) =>
        uuids.map((gpuUuid, g) => ({
          hostId: host.id,
          gpuUuid,
          minuteStart,
          samples: 4,
          util: (m + g) % 7 === 0 ? 0 : 0.8,
          memUsedBytes: 10n * 1024n ** 3n,
          memTotalBytes: 40n * 1024n ** 3n,
          processes: 1,
        })),
      ),
    });
  }
}

function startReplica(): Promise<Replica> {
  const proc = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", WORKER, url, "1"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const stderr: string[] = [];
  proc.stderr?.on("data", (d: Buffer) => stderr.push(d.toString()));
  return new Promise((resolve, reject) => {
    proc.once("exit", (code) => reject(new Error(`replica exited (${code}): ${stderr.join("")}`)));
    createInterface({ input: proc.stdout ?? process.stdin }).once("line", (line) => {
      const { holder } = JSON.parse(line) as { holder: string };
      resolve({ proc, holder, stderr });
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, fn: () => Promise<T | null>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what}; replicas said:\n${replicas.map((r) => r.stderr.join("")).join("\n")}`,
      );
    await sleep(50);
  }
}

const leaseHolder = async () =>
  (await db.lease.findUnique({ where: { name: "collector" } }))?.holder ?? null;

const hostHoursWritten = () =>
  db.usageHour.count({ where: { gpuKey: "host", hourStart: { in: hours } } });

beforeAll(async () => {
  ({ db, url } = makeTestDb());
  await seedMinutes();
}, 60_000);

afterAll(async () => {
  for (const r of replicas) if (r.proc.exitCode === null) r.proc.kill("SIGKILL");
  await db?.$disconnect();
});

describe(`collector failover on ${testDbKind()}`, () => {
  it("a killed leader's replica takes over and no ledger hour is lost or doubled", async () => {
    replicas.push(...(await Promise.all([startReplica(), startReplica()])));
    const first = await until("a leader", leaseHolder, 20_000);
    const leader = replicas.find((r) => r.holder === first);
    const follower = replicas.find((r) => r.holder !== first);
    expect(leader).toBeDefined();
    expect(follower).toBeDefined();
    if (!leader || !follower) return;

    await until(
      "two ledger hours",
      async () => ((await hostHoursWritten()) >= 2 * HOSTS ? 1 : null),
      20_000,
    );
    leader.proc.kill("SIGKILL");
    const killedAt = Date.now();
    const atKill = await hostHoursWritten();
    expect(atKill).toBeLessThan(HOURS * HOSTS); // killed mid-run, not after the end

    await until(
      "the follower to take the lease",
      async () => ((await leaseHolder()) === follower.holder ? 1 : null),
      60_000,
    );
    const takeoverS = (Date.now() - killedAt) / 1000;
    expect(takeoverS).toBeLessThan(60);

    await until(
      "every hour",
      async () => ((await hostHoursWritten()) === HOURS * HOSTS ? 1 : null),
      30_000,
    );
    await sleep(1500); // a tick or two more: nothing may be added

    const rows = await db.usageHour.findMany({
      where: { hourStart: { in: hours } },
      select: { hourStart: true, hostId: true, gpuKey: true, source: true },
    });
    const keys = rows.map((r) => `${r.hourStart.toISOString()}|${r.hostId}|${r.gpuKey}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(rows).toHaveLength(HOURS * HOSTS * (1 + GPUS));
    for (const hour of hours) {
      const inHour = rows.filter((r) => r.hourStart.getTime() === hour.getTime());
      expect(
        inHour.filter((r) => r.gpuKey === "host"),
        hour.toISOString(),
      ).toHaveLength(HOSTS);
      expect(inHour, hour.toISOString()).toHaveLength(HOSTS * (1 + GPUS));
    }
    expect(rows.every((r) => r.source === "embedded")).toBe(true);
    const state = await db.jobState.findUnique({ where: { name: "ledger.lastHour" } });
    expect(Date.parse(state?.value ?? "")).toBeGreaterThanOrEqual(lastHour);
    expect(follower.stderr.join("")).not.toMatch(/ledger failed/);
    console.log(
      `failover (${testDbKind()}): leader killed after ${atKill / HOSTS} of ${HOURS} hours, ` +
        `follower took over in ${takeoverS.toFixed(1)} s`,
    );
  }, 90_000);
});
