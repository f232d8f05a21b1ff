import "../../testing/no-egress.ts";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OAuth2Client } from "google-auth-library";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { gcpComputeResize } from "./gcp-compute-resize.ts";
import type { ResizeTarget } from "./types.ts";

// The real @google-cloud/compute REST client against a local Compute Engine API that keeps one
// VM as Google documents it: instances.get gives status and the machineType URL; stop, start and
// setMachineType return a zone Operation RUNNING that operations.wait returns DONE (the change
// lands then); setMachineType takes {"machineType": "zones/Z/machineTypes/T"} and is refused with
// 400 unless the VM is TERMINATED (stopped).

const ZONE = "us-central1-a";
const BASE = `/compute/v1/projects/proj-1/zones/${ZONE}`;
const ID = "4520031799277581759";
let server: Server;
let endpoint = "";
const seen: { method: string; path: string; auth: string | undefined; body: string }[] = [];
const vm = { status: "RUNNING", type: "a2-highgpu-4g" };
let pending: (() => void) | null = null;

const operation = (name: string, status: string) => ({
  kind: "compute#operation",
  name,
  zone: `https://www.googleapis.com${BASE}`,
  status,
});

function answer(method: string, path: string, body: string): [number, unknown] {
  const inst = `${BASE}/instances/${ID}`;
  if (method === "GET" && path === inst)
    return [
      200,
      {
        id: ID,
        status: vm.status,
        machineType: `https://www.googleapis.com/compute/v1/projects/proj-1/zones/${ZONE}/machineTypes/${vm.type}`,
      },
    ];
  const wait = /\/operations\/([\w-]+)\/wait$/.exec(path);
  if (method === "POST" && wait) {
    pending?.();
    pending = null;
    return [200, operation(wait[1] ?? "", "DONE")];
  }
  if (method === "POST" && path === `${inst}/stop`) {
    vm.status = "STOPPING";
    pending = () => (vm.status = "TERMINATED");
    return [200, operation("op-stop", "RUNNING")];
  }
  if (method === "POST" && path === `${inst}/start`) {
    pending = () => (vm.status = "RUNNING");
    return [200, operation("op-start", "RUNNING")];
  }
  if (method === "POST" && path === `${inst}/setMachineType`) {
    const { machineType } = JSON.parse(body) as { machineType?: string };
    const m = new RegExp(`^zones/${ZONE}/machineTypes/([\\w-]+)$`).exec(machineType ?? "");
    if (!m)
      return [
        400,
        {
          error: {
            code: 400,
            message: "Invalid value for field 'resource.machineType'",
            status: "INVALID_ARGUMENT",
          },
        },
      ];
    if (vm.status !== "TERMINATED")
      return [
        400,
        {
          error: {
            code: 400,
            message: "Instance is starting or running.",
            status: "FAILED_PRECONDITION",
          },
        },
      ];
    pending = () => (vm.type = m[1] ?? "");
    return [200, operation("op-set", "RUNNING")];
  }
  return [404, { error: { code: 404, message: `no ${method} ${path}`, status: "NOT_FOUND" } }];
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0] ?? "";
      seen.push({ method: req.method ?? "", path, auth: req.headers.authorization, body });
      const [status, out] = answer(req.method ?? "", path, body);
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(out));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());
beforeEach(() => {
  seen.length = 0;
  Object.assign(vm, { status: "RUNNING", type: "a2-highgpu-4g" });
});

function auth() {
  const c = new OAuth2Client();
  c.setCredentials({ access_token: "test-token", expiry_date: Date.now() + 3_600_000 });
  return c;
}
const target = (extra: Partial<ResizeTarget> = {}): ResizeTarget => ({
  policyId: "p1",
  episodeId: "e1",
  hostId: "h1",
  hostname: "gpu-g",
  provider: "gcp",
  region: "us-central1",
  zone: ZONE,
  instanceId: ID,
  action: "resize",
  fromInstanceType: "a2-highgpu-4g",
  toInstanceType: "a2-highgpu-1g",
  ...extra,
});
const resize = (t = target()) =>
  gcpComputeResize(t, { projectId: "proj-1", endpoint, authClient: auth(), pollIntervalMs: 5 });

describe("Compute Engine resize", () => {
  it("stops (waited), sets the machine type (waited) and starts the VM (waited)", async () => {
    const r = await resize();
    const inst = `${BASE}/instances/${ID}`;
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      `GET ${inst}`,
      `POST ${inst}/stop`,
      `POST ${BASE}/operations/op-stop/wait`,
      `POST ${inst}/setMachineType`,
      `POST ${BASE}/operations/op-set/wait`,
      `POST ${inst}/start`,
      `POST ${BASE}/operations/op-start/wait`,
    ]);
    expect(JSON.parse(seen[3]?.body ?? "{}")).toEqual({
      machineType: `zones/${ZONE}/machineTypes/a2-highgpu-1g`,
    });
    expect(seen.every((s) => s.auth === "Bearer test-token")).toBe(true);
    expect(vm).toEqual({ status: "RUNNING", type: "a2-highgpu-1g" });
    expect(r.detail).toContain("a2-highgpu-4g → a2-highgpu-1g");
  });

  it("a stopped VM is not stopped again; one already resized is left alone", async () => {
    vm.status = "TERMINATED";
    await resize();
    expect(seen.map((s) => s.path.split("/").pop())).not.toContain("stop");
    expect(vm).toEqual({ status: "RUNNING", type: "a2-highgpu-1g" });
    seen.length = 0;
    expect((await resize()).detail).toContain("already a2-highgpu-1g");
    expect(seen).toHaveLength(1);
  });

  it("a refusal is a final failure naming Google's status", async () => {
    await expect(resize(target({ instanceId: "999" }))).rejects.toMatchObject({
      retryable: false,
      code: "404",
      message: expect.stringContaining("NOT_FOUND"),
    });
    await expect(resize(target({ zone: null }))).rejects.toThrow(/has no zone/);
  });
});
