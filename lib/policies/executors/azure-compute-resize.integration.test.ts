import "../../testing/no-egress.ts";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { TokenCredential } from "@azure/identity";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { azureComputeResize } from "./azure-compute-resize.ts";
import type { ResizeTarget } from "./types.ts";

// The real @azure/arm-compute client against a local Azure Resource Manager that keeps one VM as
// Microsoft documents it: GET the VM (hardwareProfile.vmSize), its instanceView (PowerState/…),
// its vmSizes (the sizes on its current hardware cluster); PATCH the VM with
// {"properties":{"hardwareProfile":{"vmSize"}}} (409 OperationNotAllowed for a size not on the
// cluster unless deallocated), POST deallocate and start; each long-running call answers 202 with
// Azure-AsyncOperation, whose status is Succeeded when polled (and the change lands then).

const SUB = "/subscriptions/sub-1";
const VM_ID = "0e1c4f6a-2b3d-4e5f-8a9b-123456789abc";
const VM = `${SUB}/resourceGroups/rg-gpu/providers/Microsoft.Compute/virtualMachines/gpu-az-1`;
let server: Server;
let endpoint = "";
const seen: { method: string; path: string; auth: string | undefined; body: string }[] = [];
const vm = { size: "Standard_NC48ads_A100_v4", power: "running" };
const CLUSTER = ["Standard_NC48ads_A100_v4", "Standard_NC24ads_A100_v4"];
let landing: (() => void) | null = null;

function answer(method: string, path: string, body: string): [number, unknown, object?] {
  const lro = (then: () => void): [number, unknown, object] => {
    landing = then;
    return [202, "", { "azure-asyncoperation": `${endpoint}/op/1?api-version=2024-11-01` }];
  };
  const vmBody = () => ({
    id: VM,
    name: "gpu-az-1",
    location: "westeurope",
    properties: { vmId: VM_ID, hardwareProfile: { vmSize: vm.size } },
  });
  if (method === "GET" && path === `${SUB}/providers/Microsoft.Compute/virtualMachines`)
    return [200, { value: [vmBody()] }];
  if (method === "GET" && path === "/op/1") {
    landing?.();
    landing = null;
    return [200, { status: "Succeeded" }];
  }
  if (method === "GET" && path === VM) return [200, vmBody()];
  if (method === "GET" && path === `${VM}/instanceView`)
    return [
      200,
      { statuses: [{ code: "ProvisioningState/succeeded" }, { code: `PowerState/${vm.power}` }] },
    ];
  if (method === "GET" && path === `${VM}/vmSizes`)
    return [
      200,
      {
        value: (vm.power === "deallocated" ? [...CLUSTER, "Standard_NC4as_T4_v3"] : CLUSTER).map(
          (name) => ({ name, numberOfCores: 24 }),
        ),
      },
    ];
  if (method === "PATCH" && path === VM) {
    const size = (JSON.parse(body) as { properties?: { hardwareProfile?: { vmSize?: string } } })
      .properties?.hardwareProfile?.vmSize;
    if (!size) return [400, { error: { code: "InvalidParameter", message: "vmSize" } }];
    if (size === "Standard_Refused" || (vm.power !== "deallocated" && !CLUSTER.includes(size)))
      return [
        409,
        {
          error: {
            code: "OperationNotAllowed",
            message: `Unable to resize the VM to ${size}: deallocate it first`,
          },
        },
      ];
    return lro(() => (vm.size = size));
  }
  if (method === "POST" && path === `${VM}/deallocate`)
    return lro(() => (vm.power = "deallocated"));
  if (method === "POST" && path === `${VM}/start`) return lro(() => (vm.power = "running"));
  return [404, { error: { code: "ResourceNotFound", message: `${method} ${path}` } }];
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0] ?? "";
      seen.push({ method: req.method ?? "", path, auth: req.headers.authorization, body });
      const [status, out, headers] = answer(req.method ?? "", path, body);
      res
        .writeHead(status, { "content-type": "application/json", ...headers })
        .end(out === "" ? "" : JSON.stringify(out));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());
beforeEach(() => {
  seen.length = 0;
  Object.assign(vm, { size: "Standard_NC48ads_A100_v4", power: "running" });
});

const credential: TokenCredential = {
  getToken: () => Promise.resolve({ token: "test-token", expiresOnTimestamp: Date.now() + 3.6e6 }),
};
const target = (to: string): ResizeTarget => ({
  policyId: "p1",
  episodeId: "e1",
  hostId: "h1",
  hostname: "gpu-az",
  provider: "azure",
  region: "westeurope",
  zone: "1",
  instanceId: VM_ID,
  action: "resize",
  fromInstanceType: "Standard_NC48ads_A100_v4",
  toInstanceType: to,
});
const resize = (to: string) =>
  azureComputeResize(target(to), {
    subscriptionId: "sub-1",
    endpoint,
    credential,
    updateIntervalInMs: 5,
  });
const calls = () => seen.filter((s) => s.path !== "/op/1").map((s) => `${s.method} ${s.path}`);

describe("Azure VM resize", () => {
  it("a size on the VM's cluster is set in place (Azure restarts the VM)", async () => {
    const r = await resize("Standard_NC24ads_A100_v4");
    expect(calls().slice(0, 5)).toEqual([
      `GET ${SUB}/providers/Microsoft.Compute/virtualMachines`,
      `GET ${VM}`,
      `GET ${VM}/instanceView`,
      `GET ${VM}/vmSizes`,
      `PATCH ${VM}`,
    ]);
    expect(calls().filter((c) => !c.startsWith("GET"))).toEqual([`PATCH ${VM}`]);
    expect(JSON.parse(seen.find((s) => s.method === "PATCH")?.body ?? "{}")).toMatchObject({
      properties: { hardwareProfile: { vmSize: "Standard_NC24ads_A100_v4" } },
    });
    expect(seen.every((s) => s.path === "/op/1" || s.auth === "Bearer test-token")).toBe(true);
    expect(vm).toEqual({ size: "Standard_NC24ads_A100_v4", power: "running" });
    expect(r.detail).toContain("in place");
  });

  it("any other size: deallocate, update, start", async () => {
    const r = await resize("Standard_NC4as_T4_v3");
    const changes = calls().filter((c) => !c.startsWith("GET"));
    expect(changes).toEqual([`POST ${VM}/deallocate`, `PATCH ${VM}`, `POST ${VM}/start`]);
    expect(vm).toEqual({ size: "Standard_NC4as_T4_v3", power: "running" });
    expect(r.detail).toContain("deallocate");
  });

  it("a retry carries on: a deallocated VM already resized is only started", async () => {
    Object.assign(vm, { size: "Standard_NC4as_T4_v3", power: "deallocated" });
    await resize("Standard_NC4as_T4_v3");
    expect(calls().filter((c) => !c.startsWith("GET"))).toEqual([`POST ${VM}/start`]);
    expect(vm.power).toBe("running");
  });

  it("a refusal is final; a host on another cloud or an unknown VM is refused", async () => {
    await expect(resize("Standard_Refused")).rejects.toMatchObject({
      retryable: false,
      code: "OperationNotAllowed",
    });
    seen.length = 0;
    const other = { ...target("Standard_X"), provider: "gcp" };
    const o = { subscriptionId: "sub-1", endpoint, credential };
    await expect(azureComputeResize(other, o)).rejects.toThrow(/not Azure/);
    expect(seen).toEqual([]);
    const unknown = { ...target("Standard_X"), instanceId: "11111111-2222-4333-8444-555555555555" };
    await expect(azureComputeResize(unknown, o)).rejects.toMatchObject({
      retryable: false,
      code: "not_found",
    });
  });
});
