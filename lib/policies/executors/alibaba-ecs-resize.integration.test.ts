import "../../testing/no-egress.ts";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { alibabaEcsResize } from "./alibaba-ecs-resize.ts";
import type { ResizeTarget } from "./types.ts";

// The real @alicloud/ecs20140526 client against a local ECS API that keeps one pay-as-you-go
// instance as Alibaba Cloud documents it: each RPC call with x-acs-action, x-acs-version
// 2014-05-26 and an ACS3-HMAC-SHA256 signature, parameters in the query; DescribeInstances
// (RegionId, InstanceIds as a JSON array) gives {"Instances":{"Instance":[{InstanceId,
// InstanceType, Status}]}}; ModifyInstanceSpec is refused with IncorrectInstanceStatus unless the
// instance is Stopped, which it is two DescribeInstances after StopInstance.

const ID = "i-uf6f5trc95ug8t33qnbl";
let server: Server;
let endpoint = "";
const calls: { action: string; q: URLSearchParams; auth: string; version: string }[] = [];
const inst = { status: "Running", type: "ecs.gn7i-c32g1.32xlarge", describesToStop: 0 };

function answer(action: string, q: URLSearchParams): [number, unknown] {
  const fail = (status: number, Code: string) =>
    [status, { RequestId: "req-e", HostId: "ecs.aliyuncs.com", Code, Message: Code }] as [
      number,
      unknown,
    ];
  switch (action) {
    case "DescribeInstances": {
      if (q.get("RegionId") !== "cn-shanghai") return fail(400, "InvalidRegionId.NotFound");
      const ids = JSON.parse(q.get("InstanceIds") ?? "[]") as string[];
      if (inst.status === "Stopping" && --inst.describesToStop <= 0) inst.status = "Stopped";
      const found = ids.includes(ID)
        ? [{ InstanceId: ID, InstanceType: inst.type, Status: inst.status }]
        : [];
      return [
        200,
        { RequestId: "req-d", TotalCount: found.length, Instances: { Instance: found } },
      ];
    }
    case "StopInstance":
      if (q.get("InstanceId") !== ID) return fail(404, "InvalidInstanceId.NotFound");
      if (q.get("StoppedMode") !== "KeepCharging") return fail(400, "InvalidParameter");
      Object.assign(inst, { status: "Stopping", describesToStop: 2 });
      return [200, { RequestId: "req-stop" }];
    case "ModifyInstanceSpec":
      if (q.get("InstanceId") !== ID) return fail(404, "InvalidInstanceId.NotFound");
      if (inst.status !== "Stopped") return fail(403, "IncorrectInstanceStatus");
      inst.type = q.get("InstanceType") ?? "";
      return [200, { RequestId: "req-mod" }];
    case "StartInstance":
      if (q.get("InstanceId") !== ID) return fail(404, "InvalidInstanceId.NotFound");
      inst.status = "Starting";
      return [200, { RequestId: "req-start" }];
    default:
      return fail(400, "InvalidAction.NotFound");
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const action = String(req.headers["x-acs-action"] ?? "");
      const q = new URL(req.url ?? "/", "http://x").searchParams;
      const auth = String(req.headers.authorization ?? "");
      const version = String(req.headers["x-acs-version"] ?? "");
      calls.push({ action, q, auth, version });
      const [status, body] = answer(action, q);
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());
beforeEach(() => {
  calls.length = 0;
  Object.assign(inst, { status: "Running", type: "ecs.gn7i-c32g1.32xlarge", describesToStop: 0 });
});

const target = (extra: Partial<ResizeTarget> = {}): ResizeTarget => ({
  policyId: "p1",
  episodeId: "e1",
  hostId: "h1",
  hostname: "gpu-ali",
  provider: "alibaba",
  region: "cn-shanghai",
  zone: "cn-shanghai-l",
  instanceId: ID,
  action: "resize",
  fromInstanceType: "ecs.gn7i-c32g1.32xlarge",
  toInstanceType: "ecs.gn7i-c8g1.2xlarge",
  ...extra,
});
const resize = (t = target()) =>
  alibabaEcsResize(t, {
    endpoint,
    credentials: { accessKeyId: "test-key-id", accessKeySecret: "test-key-secret" },
    pollIntervalMs: 5,
  });

describe("Alibaba Cloud ECS resize", () => {
  it("stops (KeepCharging), waits until Stopped, changes the type and starts it", async () => {
    const r = await resize();
    expect(calls.map((c) => c.action)).toEqual([
      "DescribeInstances",
      "StopInstance",
      "DescribeInstances",
      "DescribeInstances",
      "ModifyInstanceSpec",
      "StartInstance",
    ]);
    expect(calls.every((c) => c.version === "2014-05-26")).toBe(true);
    expect(calls.every((c) => /^ACS3-HMAC-SHA256 Credential=test-key-id,/.test(c.auth))).toBe(true);
    expect(calls[4]?.q.get("InstanceType")).toBe("ecs.gn7i-c8g1.2xlarge");
    expect(inst).toMatchObject({ type: "ecs.gn7i-c8g1.2xlarge", status: "Starting" });
    expect(r.detail).toContain("ecs.gn7i-c32g1.32xlarge → ecs.gn7i-c8g1.2xlarge");
  });

  it("a stopped instance already of the new type is only started; a running one is left", async () => {
    Object.assign(inst, { status: "Stopped", type: "ecs.gn7i-c8g1.2xlarge" });
    await resize();
    expect(calls.map((c) => c.action)).toEqual(["DescribeInstances", "StartInstance"]);
    calls.length = 0;
    inst.status = "Running";
    expect((await resize()).detail).toContain("already ecs.gn7i-c8g1.2xlarge");
    expect(calls).toHaveLength(1);
  });

  it("an unknown instance is a final failure; a host on another cloud is refused unsent", async () => {
    await expect(resize(target({ instanceId: "i-uf6000000000000000" }))).rejects.toMatchObject({
      retryable: false,
      code: "not_found",
    });
    calls.length = 0;
    await expect(resize(target({ provider: "tencent" }))).rejects.toThrow(/not Alibaba Cloud/);
    expect(calls).toEqual([]);
  });
});
