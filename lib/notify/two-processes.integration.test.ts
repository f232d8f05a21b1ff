import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateAlerts } from "../alerts/evaluate-rules.ts";
import { makeGpu, makeHost, writeMinutes } from "../alerts/fixtures.ts";
import { createEmbeddedSource } from "../metrics/embedded/source.ts";
import type { Db } from "../db.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { deliverDue } from "./deliver.ts";
import { startReceiver, type Receiver } from "./receiver.ts";

// Two collector processes on one database race the evaluation and delivery jobs: this process
// and a forked one, each with its own Db client on the same SQLite file (two clients in ONE
// process would block each other: better-sqlite3 waits for a lock synchronously). No alert,
// notification or delivery may be doubled.

const T0 = new Date("2026-11-20T12:00:00Z");
const min = (n: number) => new Date(T0.getTime() + n * 60_000);
let a: Db;
let other: ChildProcess;
let rx: Receiver;

interface Reply {
  ok?: boolean;
  ready?: boolean;
  errors?: string[];
}

function next(child: ChildProcess): Promise<Reply> {
  return new Promise((resolve) => child.once("message", (m) => resolve(m as Reply)));
}

async function otherProcess(at: Date): Promise<Reply> {
  const reply = next(other);
  other.send({ at: at.toISOString() });
  return reply;
}

beforeAll(async () => {
  const t = makeTestDb();
  a = t.db;
  other = fork(
    fileURLToPath(new URL("../testing/workers/race-worker.ts", import.meta.url)),
    [t.url],
    {
      execArgv: ["--conditions=react-server", "--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    },
  );
  expect((await next(other)).ready).toBe(true);
  rx = await startReceiver(async () => {
    await new Promise((r) => setTimeout(r, 5)); // slow enough for the senders to interleave
    return 200;
  });
  await a.channel.create({ data: { name: "fleet", kind: "webhook", url: rx.url } });
  await a.channel.create({
    data: {
      name: "research",
      kind: "slack",
      url: rx.url,
      scopeKind: "team",
      scopeValue: "research",
    },
  });
  await a.alertRule.create({ data: { name: "Idle", kind: "idle", cooldownSeconds: 3600 } });
  for (const name of ["h1", "h2", "h3"]) {
    const h = await makeHost(a, name, { lastSeen: min(400) });
    for (let i = 0; i < 4; i++) {
      const g = await makeGpu(a, h.id, `${name}-g${i}`, i, { lastSeen: min(400) });
      // GPUs 0-2 idle until +60, busy at +61, idle again from +62; GPU 3 always busy
      await writeMinutes(a, h.id, g.uuid, min(-40), min(200), (t) => ({
        util: i === 3 || t.getTime() === min(61).getTime() ? 0.9 : 0,
      }));
    }
  }
});

afterAll(async () => {
  const exited = new Promise((r) => other.once("exit", r));
  other.send("exit");
  await exited;
  await rx.close();
  await a.$disconnect();
});

const evaluate = (db: Db, now: Date) =>
  evaluateAlerts(db, { now, metrics: createEmbeddedSource(db, 15), intervalS: 15 });

describe("two processes on one database", () => {
  it("race evaluation and delivery without duplicating anything", async () => {
    // +62: clear (resolving), +68: clear past the 5-min hold (resolved), +100: idle again
    const times = [0, 0, 1, 30, 62, 63, 68, 69, 100, 101];
    for (const t of times) {
      const [mine, theirs] = await Promise.all([
        evaluate(a, min(t)).then(async (r) => {
          await deliverDue(a, { clock: () => min(t) });
          return r;
        }),
        otherProcess(min(t)),
      ]);
      expect([...mine.errors, ...(theirs.errors ?? [])]).toEqual([]);
      expect(theirs.ok).toBe(true);
    }
    // 9 idle GPUs: each one resolved alert and one firing again after the busy minute, never
    // duplicated although both processes race to resolve and to open the new one
    const alerts = await a.alert.findMany();
    expect(alerts).toHaveLength(18);
    expect(new Set(alerts.map((x) => x.fingerprint)).size).toBe(9);
    expect(alerts.filter((x) => x.state === "firing")).toHaveLength(9);
    expect(alerts.filter((x) => x.state === "resolved")).toHaveLength(9);
    // per GPU: firing + resolved, then firing again, on each of the 2 channels, never twice
    const notes = await a.notification.findMany();
    expect(notes).toHaveLength(9 * 3 * 2);
    const keys = notes.map((n) => `${n.alertId}|${n.channelId}|${n.transition}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(notes.every((n) => n.status === "delivered" && n.attempts === 1)).toBe(true);
    // the receiver accepted each notification exactly once
    expect(rx.accepted()).toHaveLength(notes.length);
    const delivered = rx.accepted().map((r) => r.idempotencyKey);
    expect(new Set(delivered).size).toBe(delivered.length);
    // one event history per alert: firing, resolved for the first; firing for the second
    const events = await a.alertEvent.groupBy({ by: ["alertId"], _count: { _all: true } });
    const counts = new Map(events.map((e) => [e.alertId, e._count._all]));
    for (const x of alerts) expect(counts.get(x.id)).toBe(x.state === "resolved" ? 2 : 1);
  });
});
