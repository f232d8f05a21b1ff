import { createServer, type Server } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { env } from "../env.ts";
import { startReceiver, type Receiver } from "./receiver.ts";
import { postJson } from "./send.ts";

// The sender itself enforces the target check (a caller that skipped vetTarget still cannot reach
// a refused address) and never follows a redirect. Local receivers on 127.0.0.1 only.

const servers: { close(): Promise<void> }[] = [];
afterAll(async () => Promise.all(servers.map((s) => s.close())));

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  servers.push(r);
  return r;
}

/** Answers every POST with a redirect to `location`. */
async function redirector(location: string): Promise<string> {
  const server: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(302, { location });
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  servers.push({ close: () => new Promise((r) => server.close(() => r())) });
  const addr = server.address();
  if (typeof addr !== "object" || !addr) throw new Error("no port");
  return `http://127.0.0.1:${addr.port}/hook`;
}

const opts = { timeoutMs: 2_000 };

describe("postJson and webhook targets", () => {
  it("refuses a metadata address and the app's own port without opening a connection", async () => {
    const meta = await postJson("http://169.254.169.254/latest/meta-data/", {}, opts);
    expect(meta).toMatchObject({ ok: false, httpStatus: null });
    expect(meta.error).toBe("refused: 169.254.169.254 is a cloud metadata address");
    const own = await postJson(`http://127.0.0.1:${env.PORT}/api/alerts`, {}, opts);
    expect(own.error).toMatch(/^refused: 127\.0\.0\.1 is this app itself/);
    const named = await postJson(`http://localhost:${env.PORT}/`, {}, opts);
    expect(named.error).toMatch(/^refused: localhost resolves to 127\.0\.0\.1, which is this app/);
  });

  it("delivers to another loopback port, by address and by the name localhost", async () => {
    const rx = await receiver();
    expect(await postJson(rx.url, { a: 1 }, opts)).toMatchObject({ ok: true, httpStatus: 200 });
    const byName = rx.url.replace("127.0.0.1", "localhost");
    expect(await postJson(byName, { a: 2 }, opts)).toMatchObject({ ok: true, httpStatus: 200 });
    expect(rx.accepted().map((r) => r.body)).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it("gives up on a receiver that does not answer in time", async () => {
    const slow = await startReceiver(() => new Promise((r) => setTimeout(() => r(200), 300)));
    servers.push(slow);
    const r = await postJson(slow.url, {}, { timeoutMs: 50 });
    expect(r).toMatchObject({ ok: false, httpStatus: null, error: "no answer within 50 ms" });
  });

  it("does not follow a redirect, wherever it points", async () => {
    const next = await receiver();
    for (const location of [next.url, "http://169.254.169.254/latest/meta-data/"]) {
      const r = await postJson(await redirector(location), {}, opts);
      expect(r).toMatchObject({ ok: false, httpStatus: 302 });
      expect(r.error).toBe("HTTP 302 Found: redirects are not followed");
    }
    expect(next.requests).toHaveLength(0);
  });

  it("lets an admin-allowed private target through", async () => {
    // 0.0.0.0 reaches this machine (here: the receiver), which is why it is refused by default
    const rx = await receiver();
    const url = rx.url.replace("127.0.0.1", "0.0.0.0");
    expect((await postJson(url, {}, opts)).error).toBe(
      "refused: 0.0.0.0 is an unspecified address (it reaches this machine)",
    );
    expect(rx.requests).toHaveLength(0);
    const allowed = await postJson(url, {}, { ...opts, allowPrivate: true });
    expect(allowed).toMatchObject({ ok: true, httpStatus: 200 });
    expect(rx.accepted()).toHaveLength(1);
  });
});
