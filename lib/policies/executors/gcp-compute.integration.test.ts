import "../../testing/no-egress.ts";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OAuth2Client } from "google-auth-library";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gcpComputeExecutor } from "./gcp-compute.ts";
import type { ActionTarget } from "./types.ts";

// The real @google-cloud/compute REST client against a local server that answers as the Compute
// Engine API documents: instances.stop/delete return a zone Operation RUNNING, operations.wait
// returns it DONE; an error is {"error":{"code","message","status"}} with that HTTP status.

const BASE = "/compute/v1/projects/proj-1/zones/europe-west4-b";
let server: Server;
let endpoint = "";
const seen: { method: string; path: string; auth: string | undefined }[] = [];
let answer: (req: IncomingMessage) => { status: number; body: unknown } = () => ({
  status: 500,
  body: {},
});

const target = (action: ActionTarget["action"] = "stop"): ActionTarget => ({
  policyId: "p1",
  episodeId: "e1",
  hostId: "h1",
  hostname: "gpu-g",
  provider: "gcp",
  region: "europe-west4",
  zone: "europe-west4-b",
  instanceId: "4520031799277581759",
  action,
});

function auth() {
  const c = new OAuth2Client();
  c.setCredentials({ access_token: "test-token", expiry_date: Date.now() + 3_600_000 });
  return c;
}
const executor = () => gcpComputeExecutor({ projectId: "proj-1", endpoint, authClient: auth() });

const operation = (status: string, extra: object = {}) => ({
  kind: "compute#operation",
  name: "operation-17",
  zone: `https://www.googleapis.com${BASE}`,
  operationType: "stop",
  status,
  ...extra,
});

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      seen.push({ method: req.method ?? "", path: req.url ?? "", auth: req.headers.authorization });
      const a = answer(req);
      res.writeHead(a.status, { "content-type": "application/json" }).end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

describe("the Compute Engine executor", () => {
  it("stops the instance and waits on its zone operation until DONE", async () => {
    seen.length = 0;
    answer = (req) =>
      req.url?.includes("/operations/operation-17/wait")
        ? { status: 200, body: operation("DONE") }
        : { status: 200, body: operation("RUNNING") };
    const r = await executor().run(target());
    expect(r.detail).toBe(
      "instances.stop 4520031799277581759 in europe-west4-b: DONE (operation-17)",
    );
    expect(seen.map((s) => `${s.method} ${s.path.split("?")[0]}`)).toEqual([
      `POST ${BASE}/instances/4520031799277581759/stop`,
      `POST ${BASE}/operations/operation-17/wait`,
    ]);
    expect(seen.every((s) => s.auth === "Bearer test-token")).toBe(true);
  });

  it("deletes the instance when the action is terminate", async () => {
    seen.length = 0;
    answer = () => ({ status: 200, body: operation("DONE", { operationType: "delete" }) });
    const r = await executor().run(target("terminate"));
    expect(r.detail).toContain("instances.delete 4520031799277581759");
    expect(seen.map((s) => `${s.method} ${s.path.split("?")[0]}`)).toEqual([
      `DELETE ${BASE}/instances/4520031799277581759`,
    ]);
  });

  it("fails finally on 403, retryably on 503 and on an operation that ends in error", async () => {
    const error = (code: number, status: string) => ({
      status: code,
      body: { error: { code, message: `Required 'compute.instances.stop'`, status } },
    });
    answer = () => error(403, "PERMISSION_DENIED");
    await expect(executor().run(target())).rejects.toMatchObject({
      retryable: false,
      code: "403",
      message: expect.stringContaining("PERMISSION_DENIED"),
    });
    answer = () => error(503, "UNAVAILABLE");
    seen.length = 0;
    await expect(executor().run(target())).rejects.toMatchObject({ retryable: true, code: "503" });
    expect(seen).toHaveLength(1); // the SDK's own retries are off: the lifecycle retries
    answer = () => ({
      status: 200,
      body: operation("DONE", {
        error: { errors: [{ code: "RESOURCE_NOT_READY", message: "not ready" }] },
      }),
    });
    await expect(executor().run(target())).rejects.toMatchObject({
      retryable: true,
      code: "RESOURCE_NOT_READY",
    });
  });

  it("refuses a host without the facts it needs, before any request", async () => {
    seen.length = 0;
    await expect(executor().run({ ...target(), zone: null })).rejects.toMatchObject({
      retryable: false,
      message: "gpu-g has no zone",
    });
    await expect(executor().run({ ...target(), provider: "aws" })).rejects.toMatchObject({
      retryable: false,
    });
    // no project given, none in GOOGLE_CLOUD_PROJECT and none the credentials know of
    await expect(
      gcpComputeExecutor({ endpoint, authClient: auth() }).run(target()),
    ).rejects.toMatchObject({ retryable: false, code: "no_project" });
    expect(seen).toEqual([]);
  });
});
