// getJson over http and https (node:https is loaded only for an https URL): the kubelet answers
// over TLS with its own CA; a bad URL or an untrusted certificate rejects.

import { readFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selfSignedCert } from "../test/helpers.ts";
import { getJson } from "./http-json.ts";

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );
}

const answer = (_req: unknown, res: import("node:http").ServerResponse) => {
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify({ items: [{ name: "pod-a" }] }));
};

describe("getJson", () => {
  let tls: { cert: string; key: string };
  let https: Server;
  let http: Server;
  let httpsPort = 0;
  let httpPort = 0;
  beforeAll(async () => {
    const files = selfSignedCert();
    tls = { cert: readFileSync(files.cert, "utf8"), key: readFileSync(files.key, "utf8") };
    https = createHttpsServer(tls, answer);
    http = createHttpServer(answer);
    [httpsPort, httpPort] = await Promise.all([listen(https), listen(http)]);
  });
  afterAll(async () => {
    await Promise.all(
      [https, http].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
    );
  });

  it("reads JSON over https with the server's CA, and over http", async () => {
    const want = { items: [{ name: "pod-a" }] };
    expect(
      await getJson({ url: `https://127.0.0.1:${httpsPort}/pods`, ca: tls.cert, timeoutMs: 5000 }),
    ).toEqual(want);
    expect(await getJson({ url: `http://127.0.0.1:${httpPort}/pods`, timeoutMs: 5000 })).toEqual(
      want,
    );
  });

  it("rejects a certificate it does not trust unless told to skip the check", async () => {
    const url = `https://127.0.0.1:${httpsPort}/pods`;
    await expect(getJson({ url, timeoutMs: 5000 })).rejects.toThrow(/self[- ]signed/i);
    expect(await getJson({ url, insecure: true, timeoutMs: 5000 })).toEqual({
      items: [{ name: "pod-a" }],
    });
  });

  it("rejects a URL it cannot parse", async () => {
    await expect(getJson({ url: "not a url", timeoutMs: 5000 })).rejects.toThrow(/Invalid URL/);
  });
});
