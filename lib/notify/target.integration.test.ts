import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer, type AddressInfo, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { InvalidInputError } from "../core/errors.ts";
import type { Db } from "../db.ts";
import { env } from "../env.ts";
import { freePort } from "../testing/prometheus.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { channelInputSchema } from "../zod/schemas/channel.ts";
import { deliverDue } from "./deliver.ts";
import { enqueueNotifications } from "./enqueue.ts";
import { createChannel, updateChannel } from "./save-channel.ts";
import { postJson, type Sender } from "./send.ts";
import { FAILURE_ANSWER_MS, TEST_FAILED, testChannel } from "./test-channel.ts";

// Webhook targets are checked when a channel is saved, before every delivery and before the test
// button's POST. Refused targets are literal addresses, so nothing here reaches the network.

const T0 = new Date("2026-11-20T12:00:00Z");
const META = "http://169.254.169.254/latest/meta-data/";
const HINT = "An admin can allow private webhook targets in the admin settings.";
const deny = async () => false;
const allow = async () => true;
let db: Db;

const input = (url: string) =>
  channelInputSchema.parse({ name: `c-${Math.random()}`, kind: "webhook", url });

async function refusal(p: Promise<unknown>): Promise<InvalidInputError> {
  const e: unknown = await p.then(
    () => null,
    (err: unknown) => err,
  );
  if (!(e instanceof InvalidInputError)) throw new Error(`expected InvalidInputError, got ${e}`);
  return e;
}

/** A channel stored before the check existed, or edited in the database. */
const stored = (url: string) =>
  db.channel.create({ data: { name: `c-${Math.random()}`, kind: "webhook", url } });

/** A stored channel with one queued alert notification. */
async function queued(url: string) {
  const rule = await db.alertRule.create({ data: { name: "Idle", kind: "idle" } });
  const channel = await stored(url);
  const alert = await db.alert.create({
    data: {
      ruleId: rule.id,
      fingerprint: `fp-${Math.random()}`,
      kind: "idle",
      summary: "GPU 3 on h1 held but idle",
      startsAt: T0,
    },
  });
  await enqueueNotifications(db, { ...alert, hostname: null }, "firing", T0, new Set([channel.id]));
  return { channel, n: await db.notification.findFirstOrThrow({ where: { alertId: alert.id } }) };
}

const okSend = () =>
  vi.fn<Sender>(async () => ({ ok: true, httpStatus: 200, error: null, durationMs: 1 }));

beforeAll(() => {
  ({ db } = makeTestDb());
});
afterAll(async () => db.$disconnect());

describe("saving a channel", () => {
  it("refuses a metadata target with a 400-style issue on url that names the admin setting", async () => {
    const e = await refusal(createChannel(input(META), db, { allowPrivate: deny }));
    const message = `webhook target refused: 169.254.169.254 is a cloud metadata address. ${HINT}`;
    expect(e.issues).toEqual([{ path: "url", message }]);
    expect(e.message).toBe(`invalid channel: url: ${message}`);
    expect(await db.channel.count({ where: { url: META } })).toBe(0);
  });

  it("refuses the app's own port, allows other loopback ports and private addresses", async () => {
    const own = await refusal(
      createChannel(input(`http://127.0.0.1:${env.PORT}/api/alerts`), db, { allowPrivate: deny }),
    );
    expect(own.issues[0]?.message).toMatch(/this app itself .* An admin can allow private/);
    const read = vi.fn(deny);
    for (const url of ["http://127.0.0.1:9/hook", "http://10.1.2.3:8080/hook"])
      expect((await createChannel(input(url), db, { allowPrivate: read })).kind).toBe("webhook");
    // the admin setting is only consulted for a target that would be refused
    expect(read).not.toHaveBeenCalled();
  });

  it("saves a refused target when the admin allows private targets", async () => {
    const c = await createChannel(input(META), db, { allowPrivate: allow });
    expect(c.url).toBe(META);
  });

  it("checks a changed URL on update, but still lets a refused channel be renamed or disabled", async () => {
    const c = await createChannel(input("http://127.0.0.1:9/hook"), db, { allowPrivate: deny });
    const e = await refusal(updateChannel(c.id, { url: META }, db, { allowPrivate: deny }));
    expect(e.issues[0]?.path).toBe("url");
    const channel = await stored("http://[fd00:ec2::254]/");
    const renamed = await updateChannel(channel.id, { name: "renamed", enabled: false }, db, {
      allowPrivate: deny,
    });
    expect([renamed.name, renamed.enabled]).toEqual(["renamed", false]);
  });
});

describe("delivering to a refused target", () => {
  it("records a failed attempt with the reason, without sending, and does not retry", async () => {
    const { n, channel } = await queued(`${META}?token=s3cr3t-value`);
    const send = okSend();
    const report = await deliverDue(db, { send, allowPrivate: deny, clock: () => T0 });
    expect(send).not.toHaveBeenCalled();
    expect(report).toMatchObject({ claimed: 1, failed: 1, retrying: 0 });
    const done = await db.notification.findUniqueOrThrow({
      where: { id: n.id },
      include: { attemptLog: true },
    });
    expect([done.status, done.attempts]).toEqual(["failed", 1]);
    expect(done.lastError).toBe(
      `webhook target refused: 169.254.169.254 is a cloud metadata address. ${HINT}`,
    );
    expect(done.attemptLog.map((a) => [a.httpStatus, a.error])).toEqual([
      [null, `webhook target refused: 169.254.169.254 is a cloud metadata address. ${HINT}`],
    ]);
    const later = new Date(T0.getTime() + 86_400_000);
    expect((await deliverDue(db, { send, allowPrivate: deny, clock: () => later })).claimed).toBe(
      0,
    );
    const { listChannels } = await import("./list-channels.ts");
    const c = (await listChannels(db)).channels.find((x) => x.id === channel.id);
    expect(c?.health).toMatchObject({ status: "failing", failed: 1 });
    expect(c?.health.lastError).toContain(HINT);
  });

  it("sends when the admin allows private targets, reading the setting once per run", async () => {
    const a = await queued("http://169.254.169.254/a");
    const b = await queued("http://[::ffff:169.254.169.254]/b");
    const send = okSend();
    const read = vi.fn(allow);
    const report = await deliverDue(db, { send, allowPrivate: read, clock: () => T0 });
    expect(report.delivered).toBe(2);
    expect(read).toHaveBeenCalledTimes(1);
    expect(send.mock.calls.map((c) => [c[0], c[2].allowPrivate])).toEqual(
      expect.arrayContaining([
        [a.channel.url, true],
        [b.channel.url, true],
      ]),
    );
  });
});

describe("the test button", () => {
  it("reports a refused target without sending", async () => {
    const { channel } = await queued(`http://127.0.0.1:${env.PORT}/`);
    const send = okSend();
    const holdFailure = async () => {};
    const r = await testChannel(channel.id, {
      client: db,
      send,
      allowPrivate: deny,
      now: T0,
      holdFailure,
    });
    expect(send).not.toHaveBeenCalled();
    expect(r).toMatchObject({ ok: false, httpStatus: null, durationMs: 0 });
    expect(r.error).toMatch(/^webhook target refused: 127\.0\.0\.1 is this app itself/);
    expect(r.error).toContain(HINT);
    const allowed = await testChannel(channel.id, { client: db, send, allowPrivate: allow });
    expect(allowed.ok).toBe(true);
    expect(send.mock.calls[0]?.[2].allowPrivate).toBe(true);
  });

  it("answers every failure alike, at the same deadline, quoting nothing the target said", async () => {
    const closed = await freePort();
    const silent = createServer(() => {}); // accepts, never answers
    const garbage = createServer((s) => s.end("SSH-2.0-OpenSSH_9.2\r\n"));
    const SECRET = "INTERNAL-SECRET aws_secret_access_key=AKIAEXAMPLESECRET";
    const leaky = createHttpServer((req, res) => {
      res.writeHead(req.url?.includes("403") ? 403 : 400, { "content-type": "text/plain" });
      res.end(SECRET);
    });
    await Promise.all(
      [silent, garbage, leaky].map(
        (srv) => new Promise<void>((r) => srv.listen(0, "127.0.0.1", r)),
      ),
    );
    const port = (srv: Server | HttpServer) => (srv.address() as AddressInfo).port;
    const targets: [string, string][] = [
      ["webhook", `http://127.0.0.1:${closed}/hook`],
      ["webhook", `http://127.0.0.1:${port(silent)}/hook`],
      ["webhook", `http://127.0.0.1:${port(garbage)}/hook`],
      ["webhook", `http://127.0.0.1:${port(leaky)}/403`],
      ["alertmanager_api", `http://127.0.0.1:${port(leaky)}/am`],
    ];
    try {
      const answers = [];
      const holds: number[] = [];
      const holdFailure = vi.fn(async (startedMs: number, totalMs: number) => {
        holds.push(totalMs);
        expect(startedMs).toBeLessThanOrEqual(Date.now());
      });
      for (const [kind, url] of targets) {
        const channel = await db.channel.create({
          data: { name: `c-${Math.random()}`, kind, url },
        });
        const send: Sender = (u, body, opts) => postJson(u, body, { ...opts, timeoutMs: 500 });
        answers.push(
          await testChannel(channel.id, { client: db, send, allowPrivate: allow, holdFailure }),
        );
      }
      expect(answers).toEqual(
        Array(targets.length).fill({
          ok: false,
          httpStatus: null,
          error: TEST_FAILED,
          durationMs: 0,
        }),
      );
      expect(JSON.stringify(answers)).not.toContain("SECRET");
      // each waited for the one fixed deadline after the button was pressed
      expect(holds).toEqual(Array(targets.length).fill(FAILURE_ANSWER_MS));
    } finally {
      silent.close();
      garbage.close();
      leaky.close();
    }
  });

  it("holds a refused target's answer to the same deadline", async () => {
    const { channel } = await queued(META);
    const holdFailure = vi.fn(async () => {});
    const r = await testChannel(channel.id, { client: db, allowPrivate: deny, holdFailure });
    expect(r.error).toMatch(/^webhook target refused: 169\.254\.169\.254 is a cloud metadata/);
    expect(holdFailure).toHaveBeenCalledWith(expect.any(Number), FAILURE_ANSWER_MS);
  });
});
