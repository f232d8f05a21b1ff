import "../../testing/no-egress.ts";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import dns from "node:dns";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../../exporter/log.ts";
import { startExporter, type RunningExporter } from "../../../exporter/server.ts";
import type { Db } from "../../db.ts";
import { makeTestDb } from "../../testing/test-db.ts";
import { simulatedExecutor, startSimulated } from "./simulated.ts";
import type { ActionTarget } from "./types.ts";
import { SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER, webhookExecutor } from "./webhook.ts";

// The executors other than AWS (lifecycle.integration.test.ts drives that one): the signed
// webhook against a local receiver that verifies the signature, the webhook target policy, and
// the simulated cloud switching a simulator host off and on. And the egress guard itself.

const SECRET = "a-test-secret-of-some-length";
const NOW = new Date("2026-11-20T12:00:00Z");
let db: Db;
let receiver: Server;
let hookUrl = "";
let status = 200;
const got: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
let exporter: RunningExporter;

const target = (hostId = "h1"): ActionTarget => ({
  policyId: "p1",
  episodeId: "e1",
  hostId,
  hostname: "gpu-a",
  provider: "onprem",
  region: "lab",
  zone: null,
  instanceId: null,
  action: "stop",
});

beforeAll(async () => {
  db = makeTestDb().db;
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      got.push({ headers: req.headers, body });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/act`;
  exporter = await startExporter({
    listenAddress: "127.0.0.1:0",
    simulate: true,
    simulateHosts: 3,
    logger: silentLogger,
  });
});
afterAll(async () => {
  receiver.close();
  await exporter.close();
  await db.$disconnect();
});

describe("the signed webhook executor", () => {
  const allow = async () => true;

  it("posts the action signed over timestamp and body", async () => {
    const ex = webhookExecutor({
      url: hookUrl,
      secret: SECRET,
      allowPrivate: allow,
      clock: () => NOW,
    });
    expect((await ex.run(target())).detail).toBe("webhook answered 200");
    const req = got.at(-1);
    const ts = String(req?.headers[TIMESTAMP_HEADER]);
    expect(ts).toBe(String(NOW.getTime() / 1000));
    expect(req?.headers[SIGNATURE_HEADER]).toBe(signWebhook(SECRET, Number(ts), req?.body ?? ""));
    expect(JSON.parse(req?.body ?? "{}")).toMatchObject({
      type: "gpufleet.policy.stop",
      hostname: "gpu-a",
      episodeId: "e1",
    });
    // a receiver with another secret, or a body changed in transit, does not verify
    expect(signWebhook("another-secret-entirely", Number(ts), req?.body ?? "")).not.toBe(
      req?.headers[SIGNATURE_HEADER],
    );
  });

  it("posts a scale signal signed the same way, keyed by the signal", async () => {
    const ex = webhookExecutor({ url: hookUrl, secret: SECRET, allowPrivate: allow });
    const r = await ex.scale?.({
      policyId: "p1",
      signalId: "s9",
      pool: "asg:train",
      group: "train",
      provider: "onprem",
      region: "lab",
      zone: null,
      direction: "out",
      fromSize: 2,
      desired: 3,
    });
    expect(r?.detail).toBe("webhook answered 200");
    const req = got.at(-1);
    const ts = Number(req?.headers[TIMESTAMP_HEADER]);
    expect(req?.headers[SIGNATURE_HEADER]).toBe(signWebhook(SECRET, ts, req?.body ?? ""));
    expect(req?.headers["idempotency-key"]).toBe("s9:scale");
    expect(JSON.parse(req?.body ?? "{}")).toMatchObject({
      type: "gpufleet.policy.scale",
      group: "train",
      direction: "out",
      desired: 3,
    });
  });

  it("treats 5xx as retryable and 4xx as final", async () => {
    const ex = webhookExecutor({ url: hookUrl, secret: SECRET, allowPrivate: allow });
    status = 503;
    await expect(ex.run(target())).rejects.toMatchObject({ retryable: true, code: "503" });
    status = 400;
    await expect(ex.run(target())).rejects.toMatchObject({ retryable: false, code: "400" });
    status = 200;
  });

  it("goes through the webhook target policy: a metadata address is refused", async () => {
    const before = got.length;
    const url = "http://169.254.169.254/latest/api/token";
    const ex = webhookExecutor({ url, secret: SECRET, allowPrivate: async () => false });
    await expect(ex.run(target())).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining("metadata"),
    });
    expect(got.length).toBe(before);
  });

  it("refuses to send unsigned", async () => {
    const ex = webhookExecutor({ url: hookUrl, secret: undefined, allowPrivate: allow });
    if (process.env.GPUFLEET_POLICY_WEBHOOK_SECRET) return;
    await expect(ex.run(target())).rejects.toMatchObject({ retryable: false });
  });
});

describe("the simulated cloud", () => {
  it("stops a simulator host (its metrics answer 503) and starts it again", async () => {
    const host = await db.host.create({
      data: { hostname: "sim-1", origin: "demo", target: `${exporter.url}/hosts/1/metrics` },
    });
    const metrics = () => fetch(`${exporter.url}/hosts/1/metrics`);
    expect((await metrics()).status).toBe(200);
    const r = await simulatedExecutor(db).run(target(host.id));
    expect(r.detail).toBe("stop: simulated power off");
    expect((await metrics()).status).toBe(503);
    expect((await fetch(`${exporter.url}/hosts/2/metrics`)).status).toBe(200);
    await startSimulated(db, host.id);
    expect((await metrics()).status).toBe(200);
  });

  it("never reaches a host that is not a demo host", async () => {
    const host = await db.host.create({
      data: { hostname: "real-1", origin: "settings", target: "http://10.0.0.5:9445/metrics" },
    });
    await expect(simulatedExecutor(db).run(target(host.id))).rejects.toMatchObject({
      retryable: false,
    });
  });

  it("refuses a bad power request", async () => {
    const res = await fetch(`${exporter.url}/hosts/1/power`, { method: "POST", body: "reboot" });
    expect(res.status).toBe(400);
    expect(
      (await fetch(`${exporter.url}/hosts/99/power`, { method: "POST", body: "off" })).status,
    ).toBe(404);
  });
});

describe("the test egress guard", () => {
  it("refuses connections and lookups beyond loopback, and the metadata addresses", async () => {
    expect(() => net.connect(80, "169.254.169.254")).toThrow(/egress guard/);
    expect(() => net.connect({ host: "100.100.100.200", port: 80 })).toThrow(/egress guard/);
    expect(() => dns.lookup("metadata.google.internal", () => {})).toThrow(/egress guard/);
    await expect(fetch("https://ec2.us-east-1.amazonaws.com/")).rejects.toThrow(/egress guard/);
    expect(process.env.AWS_EC2_METADATA_DISABLED).toBe("true");
  });
});
