import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { scrapeOne } from "./scrape.ts";

// A keep-alive connection the exporter closed while it sat in the pool fails the next request
// before any answer; the scrape is tried once more on a new connection (as Go's transport does
// under Prometheus), and only once. Seen in the fault suite: a scrape right after a stall failed.

const BODY = 'gpu_host_info{hostname="h"} 1\n';
const OK = `HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: ${BODY.length}\r\nconnection: close\r\n\r\n${BODY}`;

let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

/** A server that resets the first `resets` connections as soon as a request arrives. */
async function resetting(resets: number): Promise<{ url: string; connections: () => number }> {
  let n = 0;
  server = createServer((socket: Socket) => {
    const i = n++;
    socket.once("data", () => {
      if (i < resets) socket.resetAndDestroy();
      else socket.end(OK);
    });
  });
  await new Promise<void>((r) => server?.listen(0, "127.0.0.1", r));
  const addr = server.address();
  if (typeof addr !== "object" || !addr) throw new Error("no port");
  return { url: `http://127.0.0.1:${addr.port}/metrics`, connections: () => n };
}

describe("scrapeOne on a reset connection", () => {
  it("tries once more on a new connection and succeeds", async () => {
    const s = await resetting(1);
    const r = await scrapeOne(s.url, 5000);
    expect(r).toMatchObject({ ok: true });
    expect(s.connections()).toBe(2);
  });

  it("gives up after the second reset, naming the error", async () => {
    const s = await resetting(10);
    const r = await scrapeOne(s.url, 5000);
    expect(r).toMatchObject({
      ok: false,
      error: expect.stringMatching(/ECONNRESET|UND_ERR_SOCKET/),
    });
    expect(s.connections()).toBe(2);
  });
});
