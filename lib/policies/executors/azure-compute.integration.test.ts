import "../../testing/no-egress.ts";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { TokenCredential } from "@azure/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { azureComputeExecutor } from "./azure-compute.ts";
import type { ActionTarget } from "./types.ts";

// The real @azure/arm-compute client against a local server that answers as Azure Resource
// Manager documents: listAll gives {value:[VirtualMachine]}, deallocate/delete answer 202 with
// Azure-AsyncOperation, whose status is then Succeeded (or Failed); an error is
// {"error":{"code","message"}} with that HTTP status.

const SUB = "/subscriptions/sub-1";
const VM_ID = "0e1c4f6a-2b3d-4e5f-8a9b-123456789abc";
const VM_PATH = `${SUB}/resourceGroups/rg-gpu/providers/Microsoft.Compute/virtualMachines/gpu-az-1`;
let server: Server;
let endpoint = "";
const seen: { method: string; path: string; auth: string | undefined }[] = [];
let opStatus = "Succeeded";
let answer: (req: IncomingMessage) => { status: number; body: unknown; headers?: object } = () => ({
  status: 500,
  body: {},
});

const target = (action: ActionTarget["action"] = "stop"): ActionTarget => ({
  policyId: "p1",
  episodeId: "e1",
  hostId: "h1",
  hostname: "gpu-az",
  provider: "azure",
  region: "westeurope",
  zone: "1",
  instanceId: VM_ID,
  action,
});

const credential: TokenCredential = {
  getToken: () => Promise.resolve({ token: "test-token", expiresOnTimestamp: Date.now() + 3.6e6 }),
};
const executor = () =>
  azureComputeExecutor({ subscriptionId: "sub-1", endpoint, credential, updateIntervalInMs: 10 });

const vm = (id: string, vmId: string) => ({ id, name: id.split("/").pop(), properties: { vmId } });

/** the normal ARM answers; `action` overrides the deallocate/delete answer */
const arm =
  (action?: { status: number; body: unknown }) =>
  (req: IncomingMessage): { status: number; body: unknown; headers?: object } => {
    const path = req.url?.split("?")[0] ?? "";
    if (path === `${SUB}/providers/Microsoft.Compute/virtualMachines`) {
      return {
        status: 200,
        body: {
          value: [
            vm(`${SUB}/resourceGroups/rg-other/providers/Microsoft.Compute/virtualMachines/x`, "f"),
            vm(VM_PATH, VM_ID.toUpperCase()),
          ],
        },
      };
    }
    if (path === "/op/1") return { status: 200, body: { status: opStatus } };
    if (action) return action;
    return {
      status: 202,
      body: "",
      headers: { "azure-asyncoperation": `${endpoint}/op/1?api-version=2024-11-01` },
    };
  };

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      seen.push({ method: req.method ?? "", path: req.url ?? "", auth: req.headers.authorization });
      const a = answer(req);
      res
        .writeHead(a.status, { "content-type": "application/json", ...a.headers })
        .end(a.body === "" ? "" : JSON.stringify(a.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

const paths = () => seen.map((s) => `${s.method} ${s.path.split("?")[0]}`);

describe("the Azure Compute executor", () => {
  it("finds the VM by vmId, deallocates it and polls the operation until Succeeded", async () => {
    seen.length = 0;
    opStatus = "Succeeded";
    answer = arm();
    const r = await executor().run(target());
    expect(r.detail).toBe(`virtualMachines.deallocate rg-gpu/gpu-az-1 (${VM_ID}): Succeeded`);
    expect(paths()).toEqual([
      `GET ${SUB}/providers/Microsoft.Compute/virtualMachines`,
      `POST ${VM_PATH}/deallocate`,
      "GET /op/1",
    ]);
    expect(seen[0]?.path).toMatch(/\?api-version=\d{4}-\d{2}-\d{2}/);
    expect(seen.every((s) => s.auth === "Bearer test-token")).toBe(true);
  });

  it("deletes the VM when the action is terminate", async () => {
    seen.length = 0;
    answer = arm();
    const r = await executor().run(target("terminate"));
    expect(r.detail).toContain("virtualMachines.delete rg-gpu/gpu-az-1");
    expect(paths()).toEqual([
      `GET ${SUB}/providers/Microsoft.Compute/virtualMachines`,
      `DELETE ${VM_PATH}`,
      "GET /op/1",
    ]);
  });

  it("fails finally on 409 and an unknown vmId, retryably on 429/503 and a Failed operation", async () => {
    answer = arm({
      status: 409,
      body: { error: { code: "OperationNotAllowed", message: "VM is being updated" } },
    });
    await expect(executor().run(target())).rejects.toMatchObject({
      retryable: false,
      code: "OperationNotAllowed",
      message: expect.stringContaining("HTTP 409"),
    });
    for (const status of [429, 503]) {
      answer = () => ({ status, body: { error: { code: "Busy", message: "try later" } } });
      seen.length = 0;
      await expect(executor().run(target())).rejects.toMatchObject({ retryable: true });
      expect(seen).toHaveLength(1); // the SDK's own retries are off: the lifecycle retries
    }
    answer = arm();
    opStatus = "Failed";
    await expect(executor().run(target())).rejects.toMatchObject({ retryable: true });
    opStatus = "Succeeded";
    seen.length = 0;
    const other = { ...target(), instanceId: "11111111-2222-3333-4444-555555555555" };
    await expect(executor().run(other)).rejects.toMatchObject({
      retryable: false,
      code: "not_found",
      message: expect.stringContaining("11111111-2222-3333-4444-555555555555"),
    });
    expect(paths()).toEqual([`GET ${SUB}/providers/Microsoft.Compute/virtualMachines`]);
  });

  it("refuses a host without the facts it needs, before any request", async () => {
    seen.length = 0;
    await expect(executor().run({ ...target(), instanceId: null })).rejects.toMatchObject({
      retryable: false,
      message: "gpu-az has no instance id",
    });
    await expect(executor().run({ ...target(), provider: "gcp" })).rejects.toMatchObject({
      retryable: false,
    });
    delete process.env.AZURE_SUBSCRIPTION_ID;
    await expect(
      azureComputeExecutor({ endpoint, credential }).run(target()),
    ).rejects.toMatchObject({
      retryable: false,
      code: "no_subscription",
      message: expect.stringContaining("AZURE_SUBSCRIPTION_ID"),
    });
    expect(seen).toEqual([]);
  });
});
