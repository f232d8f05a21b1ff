import "../../testing/no-egress.ts";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { TokenCredential } from "@azure/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { azureVmssCapacity } from "./azure-vmss.ts";
import type { ScaleTarget } from "./types.ts";

// The real @azure/arm-compute client against a local server that answers as Azure Resource
// Manager documents a scale set's update: PATCH …/virtualMachineScaleSets/S with
// {"sku":{"capacity":N}} answers 202 with Azure-AsyncOperation, whose status is then Succeeded;
// listAll gives {value:[VirtualMachineScaleSet]}; an error is {"error":{"code","message"}}.

const SUB = "/subscriptions/sub-1";
const SS = `${SUB}/resourceGroups/rg-gpu/providers/Microsoft.Compute/virtualMachineScaleSets/train-ss`;
let server: Server;
let endpoint = "";
const seen: { method: string; path: string; body: string; auth: string | undefined }[] = [];
let fail: { status: number; body: unknown } | null = null;

const target = (group: string | null = "train-ss"): ScaleTarget => ({
  policyId: "p1",
  signalId: "s1",
  pool: `asg:${group}`,
  group,
  provider: "azure",
  region: "westeurope",
  zone: "1",
  direction: "out",
  fromSize: 2,
  desired: 3,
});

const credential: TokenCredential = {
  getToken: () => Promise.resolve({ token: "test-token", expiresOnTimestamp: Date.now() + 3.6e6 }),
};
const capacity = (t = target()) =>
  azureVmssCapacity(t, { subscriptionId: "sub-1", endpoint, credential, updateIntervalInMs: 10 });

function answer(req: IncomingMessage): { status: number; body: unknown; headers?: object } {
  const path = req.url?.split("?")[0] ?? "";
  const set = { id: SS, name: "train-ss", sku: { name: "Standard_NC24ads_A100_v4", capacity: 3 } };
  if (path === `${SUB}/providers/Microsoft.Compute/virtualMachineScaleSets`) {
    return { status: 200, body: { value: [set] } };
  }
  if (path === "/op/1") return { status: 200, body: { status: "Succeeded" } };
  if (path === SS && req.method === "GET") return { status: 200, body: set };
  if (path === SS && req.method === "PATCH") {
    if (fail) return fail;
    return {
      status: 202,
      body: "",
      headers: { "azure-asyncoperation": `${endpoint}/op/1?api-version=2024-11-01` },
    };
  }
  return { status: 404, body: { error: { code: "NotFound", message: path } } };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const path = req.url ?? "";
      seen.push({ method: req.method ?? "", path, body, auth: req.headers.authorization });
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

describe("the Azure scale set capacity", () => {
  it("finds the scale set by name, sets its capacity and polls until Succeeded", async () => {
    seen.length = 0;
    const r = await capacity();
    expect(r.detail).toBe("virtualMachineScaleSets.update rg-gpu/train-ss capacity 3: Succeeded");
    const patch = seen.find((s) => s.method === "PATCH");
    expect(patch?.path.split("?")[0]).toBe(SS);
    expect(new URL(patch?.path ?? "", "http://x").searchParams.get("api-version")).toMatch(/^20/);
    expect(JSON.parse(patch?.body ?? "{}")).toEqual({ sku: { capacity: 3 } });
    expect(seen.some((s) => s.path.startsWith("/op/1"))).toBe(true);
    expect(seen.every((s) => s.auth === "Bearer test-token")).toBe(true);
  });

  it("takes <resource group>/<name> without listing", async () => {
    seen.length = 0;
    await capacity(target("rg-gpu/train-ss"));
    expect(
      seen.some((s) => (s.path.split("?")[0] ?? "").endsWith("/virtualMachineScaleSets")),
    ).toBe(false);
  });

  it("fails finally on 409 and on an unknown name, retryably on 503", async () => {
    fail = { status: 409, body: { error: { code: "Conflict", message: "busy" } } };
    await expect(capacity()).rejects.toMatchObject({ retryable: false });
    fail = { status: 503, body: { error: { code: "ServiceUnavailable", message: "later" } } };
    await expect(capacity()).rejects.toMatchObject({ retryable: true });
    fail = null;
    await expect(capacity(target("nope"))).rejects.toMatchObject({ retryable: false });
  });
});
