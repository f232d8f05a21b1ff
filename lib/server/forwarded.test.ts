import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { parseTrustedProxies } from "../config/trusted-proxies.ts";
import { applyForwarded, clientAddress } from "./forwarded.ts";

describe("clientAddress", () => {
  const none = parseTrustedProxies(undefined);
  const lb = parseTrustedProxies("10.0.0.0/8, 192.168.1.7, fd00::/8");

  it("with no trusted proxy, the peer is the client whatever X-Forwarded-For says", () => {
    expect(clientAddress("203.0.113.9", "1.2.3.4", none)).toBe("203.0.113.9");
    expect(clientAddress("::ffff:127.0.0.1", "6.6.6.6, 7.7.7.7", none)).toBe("127.0.0.1");
  });

  it("behind trusted proxies, the nearest untrusted hop", () => {
    expect(clientAddress("10.1.2.3", "198.51.100.4", lb)).toBe("198.51.100.4");
    // the client prepended a fake hop: the proxy appended the real one, right-most wins
    expect(clientAddress("10.1.2.3", "1.1.1.1, 198.51.100.4", lb)).toBe("198.51.100.4");
    expect(clientAddress("10.1.2.3", "198.51.100.4, 192.168.1.7", lb)).toBe("198.51.100.4");
    expect(clientAddress("::ffff:10.1.2.3", "2001:db8::5", lb)).toBe("2001:db8::5");
    expect(clientAddress("fd00::1", "garbage", lb)).toBe("fd00::1");
    expect(clientAddress("10.1.2.3", undefined, lb)).toBe("10.1.2.3");
  });

  it("refuses a setting that is not a list of addresses and CIDRs", () => {
    expect(() => parseTrustedProxies("10.0.0.0/33")).toThrow(/bad prefix/);
    expect(() => parseTrustedProxies("proxy.internal")).toThrow(/not an IP/);
  });
});

describe("applyForwarded on a real socket", () => {
  let server: Server | null = null;
  afterEach(() => server?.close());

  async function seen(trustedText: string | undefined, headers: Record<string, string>) {
    const proxies = parseTrustedProxies(trustedText);
    let got: Record<string, unknown> = {};
    server = createServer((req, res) => {
      applyForwarded(req, proxies);
      got = { xff: req.headers["x-forwarded-for"], real: req.headers["x-real-ip"] };
      res.end("ok");
    });
    await new Promise<void>((r) => server?.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    await (await fetch(`http://127.0.0.1:${port}/`, { headers })).text();
    server.close();
    return got;
  }

  it("a client's X-Forwarded-For and X-Real-IP are replaced by its socket address", async () => {
    expect(await seen(undefined, { "x-forwarded-for": "1.2.3.4", "x-real-ip": "5.6.7.8" })).toEqual(
      { xff: "127.0.0.1", real: undefined },
    );
  });

  it("from a trusted proxy, the address it forwards", async () => {
    expect(await seen("127.0.0.1", { "x-forwarded-for": "9.9.9.9, 198.51.100.4" })).toEqual({
      xff: "198.51.100.4",
      real: undefined,
    });
  });
});
