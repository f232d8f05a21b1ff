import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, waitForPort } from "../../scripts/lib/wait.ts";
import type { Db } from "../db.ts";
import { testChannel } from "../notify/test-channel.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { DEMO_MAILBOX_CHANNEL, DEMO_MAIL_FROM, pointDemoMailbox } from "./mailbox.ts";

// The demo's mailbox (issue 24): `npm start` runs scripts/demo-mailbox.ts on a port it picks and
// points the demo's email channel at it, so an idle alert mailed to its holder really arrives
// (saved as .eml under data/demo-mail/). Here: the real script, the real channel, a real send.

let db: Db;
let mailbox: ChildProcess | null = null;
let dir: string;
let port: number;

beforeAll(async () => {
  db = makeTestDb().db;
  dir = mkdtempSync(join(tmpdir(), "gpufleet-demo-mail-"));
  port = await freePort();
  mailbox = spawn(
    process.execPath,
    ["--import", "tsx", "scripts/demo-mailbox.ts", `--port=${port}`, `--dir=${dir}`],
    { stdio: "ignore" },
  );
  await waitForPort(port, 30_000);
}, 60_000);
afterAll(async () => {
  mailbox?.kill("SIGTERM");
  await db.$disconnect();
});

describe("the demo mailbox", () => {
  it("is made with the demo, re-pointed on later starts, and never re-made once deleted", async () => {
    expect(await pointDemoMailbox(db, 2525, { create: false })).toBe("absent");
    expect(await db.channel.count()).toBe(0);
    expect(await pointDemoMailbox(db, 2525, { create: true })).toBe("created");
    expect(await pointDemoMailbox(db, port, { create: false })).toBe("updated");
    const rows = await db.channel.findMany();
    expect(rows.map((c) => [c.name, c.kind, c.url, c.kinds, c.enabled])).toEqual([
      [DEMO_MAILBOX_CHANNEL, "email", `smtp://127.0.0.1:${port}`, '["idle"]', true],
    ]);
  });

  it("delivers through the channel into an .eml file under the mailbox's directory", async () => {
    const channel = await db.channel.findFirstOrThrow({ where: { name: DEMO_MAILBOX_CHANNEL } });
    const r = await testChannel(channel.id, { client: db, holdFailure: async () => {} });
    expect(r).toMatchObject({ ok: true });
    const files = readdirSync(dir).filter((f) => f.endsWith(".eml"));
    expect(files).toHaveLength(1);
    const mail = readFileSync(join(dir, files[0] ?? ""), "utf8");
    // the test button mails the From address when the channel has no team addresses
    expect(mail).toMatch(new RegExp(`^X-Envelope-To: ${DEMO_MAIL_FROM}\\r\\n`));
    expect(mail).toMatch(/^Subject: .*test/im);
  });

  it("refuses a message over 1 MiB with 552 and saves nothing of it", async () => {
    const { createTransport } = await import("nodemailer");
    const smtp = createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true });
    const before = readdirSync(dir).length;
    await expect(
      smtp.sendMail({
        from: DEMO_MAIL_FROM,
        to: "someone@demo.gpufleet.local",
        subject: "too big",
        text: "x".repeat(1024 * 1024 + 10),
      }),
    ).rejects.toMatchObject({ responseCode: 552 });
    expect(readdirSync(dir)).toHaveLength(before);
    smtp.close();
  });
});
