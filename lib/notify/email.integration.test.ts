import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAVE_OPENSSL, selfSignedCert } from "../../exporter/test/helpers.ts";
import type { Db } from "../db.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { startSmtpSink, type SmtpSink } from "../testing/smtp.ts";
import type { EmailChannelConfig } from "../zod/schemas/email-channel.ts";
import { deliverDue } from "./deliver.ts";
import { enqueueNotifications } from "./enqueue.ts";
import { getChannel } from "./list-channels.ts";
import { createChannel } from "./save-channel.ts";
import { testChannel } from "./test-channel.ts";

// The email channel against a real SMTP server on 127.0.0.1 (smtp-server): a delivery arrives with
// text and escaped HTML bodies, a refused login and a server that is down are retried with their
// reason recorded (never lost), STARTTLS required is refused by a server without it, the password
// stays in its file, and the settings page's test button sends a marked test message.

const T0 = new Date("2026-11-20T12:00:00Z");
const at = (ms: number) => () => new Date(T0.getTime() + ms);
const opts = { baseDelayMs: 1000, maxDelayMs: 60_000, timeoutMs: 5_000 };
let db: Db;
let sinks: SmtpSink[] = [];
const dir = mkdtempSync(join(tmpdir(), "gpufleet-smtp-"));
const passwordFile = join(dir, "smtp-password");
writeFileSync(passwordFile, "s3cret-pass\n");

async function sink(o: Parameters<typeof startSmtpSink>[0] = {}) {
  const s = await startSmtpSink(o);
  sinks.push(s);
  return s;
}

function config(s: { port: number }, extra: Partial<EmailChannelConfig> = {}): EmailChannelConfig {
  return {
    host: "127.0.0.1",
    port: s.port,
    tls: "none",
    from: "gpufleet@example.com",
    to: ["ml-team@example.com"],
    username: null,
    passwordFile: null,
    caFile: null,
    ...extra,
  };
}

async function alertOn(channelId: string, summary = "GPU 3 on h1 held but idle") {
  const rule = await db.alertRule.create({ data: { name: "Idle", kind: "idle" } });
  const alert = await db.alert.create({
    data: {
      ruleId: rule.id,
      fingerprint: `fp-${Math.random()}`,
      kind: "idle",
      summary,
      startsAt: T0,
      team: "ml",
    },
  });
  await enqueueNotifications(db, { ...alert, hostname: null }, "firing", T0, new Set([channelId]));
  return db.notification.findFirstOrThrow({ where: { alertId: alert.id } });
}

async function emailChannel(email: EmailChannelConfig) {
  return createChannel(
    {
      name: `mail-${Math.random()}`,
      kind: "email",
      email,
      scopeKind: "fleet",
      scopeValue: "",
      kinds: [],
      enabled: true,
    },
    db,
  );
}

beforeAll(() => {
  ({ db } = makeTestDb());
});
afterAll(async () => {
  await Promise.all(sinks.map((s) => s.close()));
  sinks = [];
  await db.$disconnect();
});

describe("email channel", () => {
  it("delivers through the SMTP server with a login: text and HTML bodies, user text escaped", async () => {
    const s = await sink({ user: "gpufleet", password: "s3cret-pass" });
    const ch = await emailChannel(config(s, { username: "gpufleet", passwordFile }));
    const n = await alertOn(ch.id, 'GPU 3 on <script>alert("x")</script> held but idle');
    const r = await deliverDue(db, { ...opts, clock: at(0) });
    expect(r.delivered).toBe(1);
    expect(s.logins).toEqual([{ user: "gpufleet", ok: true }]);
    expect(s.mails).toHaveLength(1);
    const mail = s.mails[0];
    expect(mail?.to).toEqual(["ml-team@example.com"]);
    expect(mail?.from).toBe("gpufleet@example.com");
    expect(mail?.subject).toContain("Idle GPU");
    expect(mail?.text).toContain('GPU 3 on <script>alert("x")</script> held but idle');
    expect(mail?.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(mail?.html).not.toContain("<script>");
    expect(mail?.headers).toContain(`${n.id}@gpufleet`);
    // the password is read from its file at the send: the store holds only the path
    const row = await db.channel.findUniqueOrThrow({ where: { id: ch.id } });
    expect(JSON.stringify(row)).not.toContain("s3cret-pass");
    expect(JSON.stringify(await getChannel(ch.id, db))).not.toContain("s3cret-pass");
    expect(ch.url).toBe(`smtp://127.0.0.1:${s.port}`);
    expect(ch.email?.passwordFile).toBe(passwordFile);
  });

  it("a refused login is retried with backoff and its reason recorded, without the server's words", async () => {
    const s = await sink({ user: "gpufleet", password: "another-password" });
    const ch = await emailChannel(config(s, { username: "gpufleet", passwordFile }));
    const n = await alertOn(ch.id);
    expect((await deliverDue(db, { ...opts, clock: at(0) })).retrying).toBe(1);
    const after = await db.notification.findUniqueOrThrow({
      where: { id: n.id },
      include: { attemptLog: true },
    });
    expect(after.status).toBe("pending");
    expect(after.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(T0.getTime() + 1000);
    expect(after.lastError).toMatch(/refused the username or password \[EAUTH\] \(SMTP 535\)/);
    expect(after.lastError).not.toContain("Invalid username");
    expect(after.attemptLog).toHaveLength(1);
    expect(s.mails).toHaveLength(0);
  });

  it("a server that is down is retried and the mail arrives once it is back", async () => {
    const first = await sink();
    const port = first.port;
    const ch = await emailChannel(config(first));
    await first.close();
    sinks = sinks.filter((x) => x !== first);
    const n = await alertOn(ch.id);
    expect((await deliverDue(db, { ...opts, clock: at(0) })).retrying).toBe(1);
    const waiting = await db.notification.findUniqueOrThrow({ where: { id: n.id } });
    expect(waiting.status).toBe("pending");
    expect(waiting.lastError).toMatch(/could not connect to the SMTP server|connection/i);
    // the server comes back on its port
    const again = await sink({ port });
    expect((await deliverDue(db, { ...opts, clock: at(1000) })).delivered).toBe(1);
    expect(again.mails).toHaveLength(1);
    const done = await db.notification.findUniqueOrThrow({
      where: { id: n.id },
      include: { attemptLog: { orderBy: { at: "asc" } } },
    });
    expect([done.status, done.attempts]).toEqual(["delivered", 2]);
    expect(done.attemptLog.map((a) => a.error === null)).toEqual([false, true]);
  });

  it("STARTTLS required: a server that does not offer it gets nothing", async () => {
    const s = await sink();
    const ch = await emailChannel(config(s, { host: "localhost", tls: "starttls" }));
    const n = await alertOn(ch.id);
    expect((await deliverDue(db, { ...opts, clock: at(0) })).retrying).toBe(1);
    const after = await db.notification.findUniqueOrThrow({ where: { id: n.id } });
    expect(after.lastError).toMatch(/STARTTLS/);
    expect(s.mails).toHaveLength(0);
  });

  it.skipIf(!HAVE_OPENSSL)(
    "implicit TLS and STARTTLS: delivered when the certificate verifies, refused when it does not",
    async () => {
      const tls = selfSignedCert();
      const keys = { key: readFileSync(tls.key), cert: readFileSync(tls.cert) };
      const smtps = await sink({ server: { secure: true, ...keys } });
      const starttls = await sink({ server: { disabledCommands: [], ...keys } });
      const trusted = await emailChannel(config(smtps, { tls: "implicit", caFile: tls.cert }));
      const upgraded = await emailChannel(config(starttls, { tls: "starttls", caFile: tls.cert }));
      const untrusted = await emailChannel(config(smtps, { tls: "implicit" }));
      const [a, b, c] = [
        await alertOn(trusted.id),
        await alertOn(upgraded.id),
        await alertOn(untrusted.id),
      ];
      const r = await deliverDue(db, { ...opts, clock: at(0) });
      expect([r.delivered, r.retrying]).toEqual([2, 1]);
      expect(smtps.mails).toHaveLength(1);
      expect(starttls.mails).toHaveLength(1);
      const status = async (id: string) =>
        (await db.notification.findUniqueOrThrow({ where: { id } })).status;
      expect([await status(a.id), await status(b.id)]).toEqual(["delivered", "delivered"]);
      const refused = await db.notification.findUniqueOrThrow({ where: { id: c.id } });
      expect(refused.status).toBe("pending");
      expect(refused.lastError).toMatch(/TLS certificate did not verify/);
      // the client broke off the handshake: the server saw the connection, never a message
      expect(smtps.errors.length).toBeGreaterThan(0);
    },
  );

  it("refuses plain SMTP to anything but loopback, and a password file without a user", async () => {
    const base = {
      name: "x",
      kind: "email" as const,
      scopeKind: "fleet" as const,
      scopeValue: "",
      kinds: [],
      enabled: true,
    };
    const { channelInputSchema } = await import("../zod/schemas/channel.ts");
    const plain = channelInputSchema.safeParse({
      ...base,
      email: { ...config({ port: 25 }), host: "mail.example.com" },
    });
    expect(plain.success).toBe(false);
    expect(JSON.stringify(plain.error?.issues)).toContain("only to 127.0.0.1");
    const noUser = channelInputSchema.safeParse({
      ...base,
      email: { ...config({ port: 25 }), passwordFile },
    });
    expect(JSON.stringify(noUser.error?.issues)).toContain("a password file needs a username");
    const noSettings = channelInputSchema.safeParse(base);
    expect(JSON.stringify(noSettings.error?.issues)).toContain("needs its SMTP settings");
  });

  it("the test button sends a marked test message to the team's addresses", async () => {
    const s = await sink();
    const ch = await emailChannel(config(s));
    const r = await testChannel(ch.id, { client: db, now: T0 });
    expect(r.ok).toBe(true);
    expect(s.mails).toHaveLength(1);
    expect(s.mails[0]?.subject).toContain("[TEST]");
    expect(s.mails[0]?.to).toEqual(["ml-team@example.com"]);
    await s.close();
    sinks = sinks.filter((x) => x !== s);
    const down = await testChannel(ch.id, { client: db, now: T0, holdFailure: async () => {} });
    expect(down.ok).toBe(false);
    expect(down.error).toContain("SMTP server did not accept the test message");
  });
});
