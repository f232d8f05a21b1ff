import { fork } from "node:child_process";
import { createServer, type ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { deliverDue } from "./deliver.ts";
import { enqueueNotifications } from "./enqueue.ts";

// The app killed with SIGKILL while four sends are in flight to a receiver that answers slowly:
// the store shows four attempts "started, no outcome"; once the claims expire the next sender
// sends each again with the same Idempotency-Key, a second attempt that completes.

const T0 = new Date("2026-11-20T12:00:00Z");
let db: Db;
let url = "";
const arrivals: string[] = [];
const held: ServerResponse[] = [];
let answer = false;
let waiter: (() => void) | null = null;
let need = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    arrivals.push(String(req.headers["idempotency-key"] ?? ""));
    if (answer) res.writeHead(200).end("ok");
    else held.push(res); // the slow receiver: never answers while the first sender lives
    if (waiter && arrivals.length >= need) waiter();
  });
});
let hook = "";

function arrived(n: number): Promise<void> {
  need = n;
  if (arrivals.length >= n) return Promise.resolve();
  return new Promise((r) => (waiter = r));
}

beforeAll(async () => {
  ({ db, url } = makeTestDb());
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  if (typeof addr !== "object" || !addr) throw new Error("no port");
  hook = `http://127.0.0.1:${addr.port}/hook`;
});
afterAll(async () => {
  for (const r of held) r.destroy();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await db.$disconnect();
});

describe("a sender killed mid-send", () => {
  it("leaves started attempts; after the claim TTL the re-send is a second attempt with the same key", async () => {
    const rule = await db.alertRule.create({ data: { name: "Throttle", kind: "throttle" } });
    const channel = await db.channel.create({ data: { name: "ops", kind: "webhook", url: hook } });
    for (let i = 0; i < 4; i++) {
      const alert = await db.alert.create({
        data: {
          ruleId: rule.id,
          fingerprint: `fp-${i}`,
          kind: "throttle",
          summary: `GPU ${i}`,
          startsAt: T0,
        },
      });
      await enqueueNotifications(
        db,
        { ...alert, hostname: null },
        "firing",
        T0,
        new Set([channel.id]),
      );
    }
    const child = fork(
      fileURLToPath(new URL("./deliver-worker.ts", import.meta.url)),
      [url, T0.toISOString()],
      {
        execArgv: ["--conditions=react-server", "--import", "tsx"],
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      },
    );
    const exited = new Promise<NodeJS.Signals | null>((r) => child.once("exit", (_c, s) => r(s)));
    await arrived(4);
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    for (const r of held.splice(0)) r.destroy();

    const ids = (await db.notification.findMany({ select: { id: true } })).map((n) => n.id).sort();
    expect([...arrivals].sort()).toEqual(ids);
    const started = await db.notificationAttempt.findMany();
    expect(started.length).toBe(4);
    expect(
      started.every((a) => a.finishedAt === null && a.httpStatus === null && a.error === null),
    ).toBe(true);
    expect(started.every((a) => a.at.getTime() === T0.getTime())).toBe(true);
    const claimed = await db.notification.findMany();
    expect(claimed.every((n) => n.status === "sending" && n.attempts === 0)).toBe(true);

    // a restarted sender, before the 60 s claim expires: nothing to take over
    answer = true;
    const early = new Date(T0.getTime() + 59_000);
    expect((await deliverDue(db, { clock: () => early })).claimed).toBe(0);
    // after it: each is sent again with its key, recorded as a second, completed attempt
    const later = new Date(T0.getTime() + 61_000);
    const r = await deliverDue(db, { clock: () => later });
    expect(r).toEqual({ claimed: 4, delivered: 4, retrying: 0, failed: 0 });
    expect(arrivals.slice(4).sort()).toEqual(ids);
    for (const id of ids) {
      const attempts = await db.notificationAttempt.findMany({
        where: { notificationId: id },
        orderBy: { at: "asc" },
      });
      expect(
        attempts.map((a) => [
          a.at.toISOString(),
          a.finishedAt?.toISOString() ?? null,
          a.httpStatus,
        ]),
      ).toEqual([
        [T0.toISOString(), null, null],
        [later.toISOString(), later.toISOString(), 200],
      ]);
    }
    const sent = await db.notification.findMany();
    expect(sent.every((n) => n.status === "delivered" && n.attempts === 1)).toBe(true);
  });
});
