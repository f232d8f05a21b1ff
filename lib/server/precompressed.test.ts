import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import {
  acceptsGzip,
  ENCODING_HEADER,
  precompressedSupport,
  SERVER_MARK,
  SharedBody,
  sharedBodyResponse,
} from "./precompressed.ts";

describe("acceptsGzip", () => {
  it.each([
    ["gzip, deflate, br", true],
    ["br;q=1.0, gzip;q=0.8", true],
    ["x-gzip", true],
    ["*", true],
    ["identity", false],
    ["gzip;q=0", false],
    ["gzip;q=0, *", false],
    ["*;q=0", false],
    ["br", false],
    ["", false],
  ])("%j → %s", (header, want) => {
    expect(acceptsGzip(header)).toBe(want);
  });
  it("is false without the header", () => expect(acceptsGzip(null)).toBe(false));
});

describe("sharedBodyResponse", () => {
  const text = JSON.stringify({ grid: Array.from({ length: 200 }, (_, i) => ({ i })) });
  const headers = { "content-type": "application/json", "cache-control": "no-store" };
  const marked = (accept: string) =>
    new Request("http://x/api/fleet", {
      headers: { [SERVER_MARK]: "precompressed", "accept-encoding": accept },
    });

  it("sends the shared gzip, marked no-transform, when the server and client allow", async () => {
    const body = new SharedBody(text);
    const res = await sharedBodyResponse(marked("gzip, br"), body, headers);
    expect(res.headers.get(ENCODING_HEADER)).toBe("gzip");
    expect(res.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(gunzipSync(bytes).toString()).toBe(text);
    // made once: a second caller gets the very same buffer
    expect(await body.gzipped()).toBe(await body.gzipped());
  });

  it("sends the text when the client does not take gzip", async () => {
    const res = await sharedBodyResponse(marked("identity"), new SharedBody(text), headers);
    expect(res.headers.get(ENCODING_HEADER)).toBeNull();
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.text()).toBe(text);
  });

  it("sends the text when no server in front restores the encoding (next dev, tests)", async () => {
    const req = new Request("http://x/api/fleet", { headers: { "accept-encoding": "gzip" } });
    const res = await sharedBodyResponse(req, new SharedBody(text), headers);
    expect(res.headers.get(ENCODING_HEADER)).toBeNull();
    expect(await res.text()).toBe(text);
  });
});

describe("precompressedSupport", () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it("marks the request and turns the route's header into Content-Encoding", async () => {
    let mark: string | string[] | undefined;
    server = createServer((req, res) => {
      req.headers[SERVER_MARK] = "spoofed by the client";
      precompressedSupport(req, res);
      mark = req.headers[SERVER_MARK];
      res.setHeader("content-type", "text/plain");
      res.setHeader(ENCODING_HEADER, "gzip");
      res.end(gzipSync("hello, fleet"));
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(mark).toBe("precompressed");
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get(ENCODING_HEADER)).toBeNull();
    expect(await res.text()).toBe("hello, fleet"); // fetch decoded it
  });
});
