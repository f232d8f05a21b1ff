import "../../testing/no-egress.ts";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../../exporter/log.ts";
import { startExporter, type RunningExporter } from "../../../exporter/server.ts";
import type { Db } from "../../db.ts";
import { makeTestDb } from "../../testing/test-db.ts";
import { executorCanResize, executorFor } from "./index.ts";
import type { ResizeTarget } from "./types.ts";
import { SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER, webhookExecutor } from "./webhook.ts";

// Resize through the signed webhook (action "resize" with the target type, signed and keyed by the
// episode) and the simulator's cloud API (an instance's type changes only while it is off); and
// the list the accept dialog reads matches the executors that have `resize`.

const SECRET = "a-test-secret-of-some-length";
const NOW = new Date("2026-11-20T12:00:00Z");
let db: Db;
let receiver: Server;
let hookUrl = "";
const got: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
let exporter: RunningExporter;

const target = (hostId = "h1"): ResizeTarget => ({
  policyId: "p1",
  episodeId: "e7",
  hostId,
  hostname: "gpu-a",
  provider: "onprem",
  region: "lab",
  zone: null,
  instanceId: null,
  action: "resize",
  fromInstanceType: "8xA100",
  toInstanceType: "2xA100",
});

beforeAll(async () => {
  db = makeTestDb().db;
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      got.push({ headers: req.headers, body });
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/act`;
  exporter = await startExporter({
    listenAddress: "127.0.0.1:0",
    simulate: true,
    simulateHosts: 2,
    logger: silentLogger,
  });
});
afterAll(async () => {
  receiver.close();
  await exporter.close();
  await db.$disconnect();
});

describe("resize executors", () => {
  it("the webhook posts action resize with the target type, signed, keyed by the episode", async () => {
    const ex = webhookExecutor({
      url: hookUrl,
      secret: SECRET,
      allowPrivate: async () => true,
      clock: () => NOW,
    });
    expect((await ex.resize?.(target()))?.detail).toBe("webhook answered 202");
    const req = got.at(-1);
    const ts = Number(req?.headers[TIMESTAMP_HEADER]);
    expect(req?.headers[SIGNATURE_HEADER]).toBe(signWebhook(SECRET, ts, req?.body ?? ""));
    expect(req?.headers["idempotency-key"]).toBe("e7:resize");
    expect(JSON.parse(req?.body ?? "{}")).toMatchObject({
      type: "gpufleet.policy.resize",
      action: "resize",
      hostname: "gpu-a",
      fromInstanceType: "8xA100",
      toInstanceType: "2xA100",
    });
  });

  it("the simulator changes an instance's type only while it is off", async () => {
    const post = (path: string, body: string) =>
      fetch(`${exporter.url}/hosts/1/${path}`, { method: "POST", body });
    expect((await post("instance-type", "g5.2xlarge")).status).toBe(409);
    expect((await post("instance-type", "bad type!")).status).toBe(400);
    const host = await db.host.create({
      data: { hostname: "sim-1", origin: "demo", target: `${exporter.url}/hosts/1/metrics` },
    });
    const sim = executorFor(db, { executor: "simulated", webhookUrl: null });
    const r = await sim.resize?.({ ...target(host.id), toInstanceType: "g5.2xlarge" });
    expect(r?.detail).toContain("power off, instance type set, power on");
    const body = await (await fetch(`${exporter.url}/hosts/1/metrics`)).text();
    expect(body).toMatch(/gpu_host_info\{[^}]*instance_type="g5\.2xlarge"/);
    // a host that is not a demo host is never reached
    const real = await db.host.create({
      data: { hostname: "real-1", origin: "settings", target: "http://10.0.0.5:9445/metrics" },
    });
    await expect(sim.resize?.(target(real.id))).rejects.toMatchObject({ retryable: false });
  });

  it("executorCanResize names exactly the executors that have resize", () => {
    for (const name of ["simulated", "webhook", "aws", "gcp", "azure", "alibaba", "tencent"]) {
      const ex = executorFor(db, { executor: name, webhookUrl: hookUrl });
      expect([name, executorCanResize(name)]).toEqual([name, ex.resize !== undefined]);
    }
    expect(executorCanResize("alibaba")).toBe(true);
    expect(executorCanResize("tencent")).toBe(false);
  });
});
