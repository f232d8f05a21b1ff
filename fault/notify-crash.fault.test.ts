import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db.ts";
import { makeTestDb, testDbKind } from "@/lib/testing/test-db.ts";

// kill -9 of the sender while a webhook is in flight (a receiver that holds the third request),
// then restarts at pinned clocks. Delivery is at-least-once (lib/notify/deliver.ts): the row in
// flight stays claimed until its claim expires (60 s), then is sent again with the same
// Idempotency-Key. So each key reaches the receiver at most twice, only the one in flight twice,
// and the store records exactly one successful delivery per notification.

const N = 5;
const T = new Date("2026-11-25T15:00:00.000Z");
const WORKER = fileURLToPath(new URL("./deliver-worker.ts", import.meta.url));

let db: Db;
let url: string;
let receiver: Server;
let hookUrl: string;
const arrivals: string[] = []; // Idempotency-Key of every request, in arrival order
let hold = 0; // the request number (1-based) to leave unanswered; 0: answer all
let onArrival: (n: number) => void = () => {};

function runWorker(clock: Date) {
  const proc = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", WORKER, url, clock.toISOString()],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  proc.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const exit = new Promise<{ code: number | null; signal: string | null; out: string }>((r) =>
    proc.once("exit", (code, signal) => r({ code, signal, out: out || err })),
  );
  return { proc, exit };
}

beforeAll(async () => {
  ({ db, url } = makeTestDb());
  receiver = createServer((req, res) => {
    const key = req.headers["idempotency-key"];
    arrivals.push(typeof key === "string" ? key : "");
    const n = arrivals.length;
    onArrival(n);
    req.resume();
    if (n === hold) return; // never answered: the sender dies waiting
    req.on("end", () => res.end("ok"));
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const addr = receiver.address();
  hookUrl = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}/hook`;
  const rule = await db.alertRule.create({ data: { name: "Idle", kind: "idle" } });
  const channel = await db.channel.create({
    data: { name: "ops", kind: "webhook", url: hookUrl },
  });
  for (let i = 0; i < N; i++) {
    const alert = await db.alert.create({
      data: {
        ruleId: rule.id,
        fingerprint: `idle|gpu-${i}`,
        kind: "idle",
        summary: `GPU ${i} idle`,
        startsAt: new Date(T.getTime() - 3_600_000),
      },
    });
    await db.notification.create({
      data: {
        alertId: alert.id,
        channelId: channel.id,
        transition: "firing",
        nextAttemptAt: new Date(T.getTime() - 60_000 + i), // sent in this order
      },
    });
  }
}, 60_000);

afterAll(async () => {
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
  await db?.$disconnect();
});

describe(`kill -9 of the sender mid-send (${testDbKind()})`, () => {
  it("resends only the one in flight, same key, after its claim expires", async () => {
    hold = 3;
    const first = runWorker(T);
    const third = new Promise<void>((r) => (onArrival = (n) => n === hold && r()));
    await third;
    first.proc.kill("SIGKILL");
    expect((await first.exit).signal).toBe("SIGKILL");
    hold = 0;
    const inFlight = arrivals[2] ?? "";
    const claimed = await db.notification.findUnique({ where: { id: inFlight } });
    expect(claimed?.status).toBe("sending");

    // 30 s later the claim still holds: the others go out, the one in flight does not
    const second = await runWorker(new Date(T.getTime() + 30_000)).exit;
    expect(second.code, second.out).toBe(0);
    expect(JSON.parse(second.out)).toMatchObject({ claimed: 2, delivered: 2 });
    expect(arrivals.filter((k) => k === inFlight)).toHaveLength(1);

    // past the claim's 60 s it is taken over and sent again, with the same Idempotency-Key
    const third2 = await runWorker(new Date(T.getTime() + 120_000)).exit;
    expect(third2.code, third2.out).toBe(0);
    expect(JSON.parse(third2.out)).toMatchObject({ claimed: 1, delivered: 1 });

    const notes = await db.notification.findMany({ include: { attemptLog: true } });
    expect(notes).toHaveLength(N);
    const perKey = new Map<string, number>();
    for (const k of arrivals) perKey.set(k, (perKey.get(k) ?? 0) + 1);
    expect([...perKey.keys()].sort()).toEqual(notes.map((n) => n.id).sort());
    for (const n of notes) {
      expect(perKey.get(n.id), n.id).toBe(n.id === inFlight ? 2 : 1);
      expect(n.status).toBe("delivered");
      const ok = n.attemptLog.filter((a) => a.httpStatus !== null && a.httpStatus < 300);
      expect(ok, n.id).toHaveLength(1);
    }
    console.log(
      `notify crash (${testDbKind()}): ${arrivals.length} requests for ${N} notifications; ` +
        `the one in flight at the kill was sent twice with one key`,
    );
  }, 60_000);
});
