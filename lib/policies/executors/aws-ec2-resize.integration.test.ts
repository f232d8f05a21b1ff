import "../../testing/no-egress.ts";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { awsEc2Resize } from "./aws-ec2-resize.ts";
import { ExecutorError, type ResizeTarget } from "./types.ts";

// The real @aws-sdk/client-ec2 against a local EC2 Query API that keeps one instance's state as
// AWS documents it (API_StopInstances, API_DescribeInstances, API_ModifyInstanceAttribute,
// API_StartInstances): POST / form-encoded with Action and Version=2016-11-15, a SigV4
// Authorization naming the region and "ec2"; the instance type can only be changed while the
// instance is `stopped` (IncorrectInstanceState otherwise), and it takes two DescribeInstances
// after StopInstances to get there.

const ID = "i-0abc1234def567890";
const NS = 'xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"';
let server: Server;
let endpoint = "";
const calls: { action: string; params: Record<string, string>; region: string }[] = [];
const inst = { state: "running", type: "g5.12xlarge", describesToStop: 0 };
let failStart = 0;

const CODES: Record<string, number> = { pending: 0, running: 16, stopping: 64, stopped: 80 };
const stateXml = (tag: string, name: string) =>
  `<${tag}><code>${CODES[name] ?? 48}</code><name>${name}</name></${tag}>`;
const err = (code: string, msg: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>${code}</Code><Message>${msg}</Message></Error></Errors><RequestID>ea966190-example</RequestID></Response>`;

function answer(action: string, p: URLSearchParams): [number, string] {
  switch (action) {
    case "DescribeInstances": {
      if (p.get("InstanceId.1") !== ID) return [400, err("InvalidInstanceID.NotFound", "no")];
      if (inst.state === "stopping" && --inst.describesToStop <= 0) inst.state = "stopped";
      return [
        200,
        `<DescribeInstancesResponse ${NS}><requestId>r1</requestId><reservationSet><item><reservationId>r-1</reservationId><ownerId>123456789012</ownerId><instancesSet><item><instanceId>${ID}</instanceId><instanceType>${inst.type}</instanceType>${stateXml("instanceState", inst.state)}</item></instancesSet></item></reservationSet></DescribeInstancesResponse>`,
      ];
    }
    case "StopInstances":
    case "StartInstances": {
      if (p.get("InstanceId.1") !== ID) return [400, err("InvalidInstanceID.NotFound", "no")];
      const prev = inst.state;
      if (action === "StartInstances" && failStart > 0) {
        failStart--;
        return [503, err("RequestLimitExceeded", "Request limit exceeded.")];
      }
      if (action === "StopInstances")
        Object.assign(inst, { state: "stopping", describesToStop: 2 });
      else inst.state = "pending";
      const set = "instancesSet"; // as the Query API names it for both
      return [
        200,
        `<${action}Response ${NS}><requestId>r2</requestId><${set}><item><instanceId>${ID}</instanceId>${stateXml("currentState", inst.state)}${stateXml("previousState", prev)}</item></${set}></${action}Response>`,
      ];
    }
    case "ModifyInstanceAttribute": {
      if (p.get("InstanceId") !== ID) return [400, err("InvalidInstanceID.NotFound", "no")];
      const to = p.get("InstanceType.Value");
      if (!to) return [400, err("MissingParameter", "InstanceType.Value")];
      if (inst.state !== "stopped")
        return [
          400,
          err("IncorrectInstanceState", `The instance '${ID}' is not in the 'stopped' state.`),
        ];
      inst.type = to;
      return [
        200,
        `<ModifyInstanceAttributeResponse ${NS}><requestId>r3</requestId><return>true</return></ModifyInstanceAttributeResponse>`,
      ];
    }
    default:
      return [400, err("InvalidAction", action)];
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const p = new URLSearchParams(body);
      const auth = req.headers.authorization ?? "";
      const scope = /Credential=[^/]+\/\d{8}\/([a-z0-9-]+)\/ec2\/aws4_request/.exec(auth);
      const action = p.get("Action") ?? "";
      calls.push({ action, params: Object.fromEntries(p), region: scope?.[1] ?? "" });
      const bad =
        req.method !== "POST" ||
        req.url !== "/" ||
        p.get("Version") !== "2016-11-15" ||
        !auth.startsWith("AWS4-HMAC-SHA256 ") ||
        !scope;
      const [status, xml] = bad
        ? [400, err("InvalidParameterValue", "bad request")]
        : answer(action, p);
      res.writeHead(status, { "content-type": "text/xml;charset=UTF-8" }).end(xml);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  calls.length = 0;
  Object.assign(inst, { state: "running", type: "g5.12xlarge", describesToStop: 0 });
});

const target = (extra: Partial<ResizeTarget> = {}): ResizeTarget => ({
  policyId: "p1",
  episodeId: "e1",
  hostId: "h1",
  hostname: "gpu-aws-1",
  provider: "aws",
  region: "us-west-2",
  zone: "us-west-2a",
  instanceId: ID,
  action: "resize",
  fromInstanceType: "g5.12xlarge",
  toInstanceType: "g5.2xlarge",
  ...extra,
});
const resize = (t = target()) =>
  awsEc2Resize(t, {
    endpoint,
    credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret" },
    pollIntervalMs: 5,
  });

describe("AWS EC2 resize", () => {
  it("stops, waits until stopped, changes the instance type and starts the instance", async () => {
    const r = await resize();
    expect(calls.map((c) => c.action)).toEqual([
      "DescribeInstances",
      "StopInstances",
      "DescribeInstances",
      "DescribeInstances",
      "ModifyInstanceAttribute",
      "StartInstances",
    ]);
    expect(calls.every((c) => c.region === "us-west-2")).toBe(true);
    expect(calls[4]?.params).toMatchObject({ InstanceId: ID, "InstanceType.Value": "g5.2xlarge" });
    expect(inst).toMatchObject({ type: "g5.2xlarge", state: "pending" });
    expect(r.detail).toContain("g5.12xlarge → g5.2xlarge");
    expect(r.detail).toContain("StartInstances: pending");
  });

  it("a retry after a failed start carries on: no second stop or modify", async () => {
    failStart = 1;
    const first = await resize().catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ExecutorError);
    expect(first).toMatchObject({ retryable: true, code: "RequestLimitExceeded" });
    expect(inst).toMatchObject({ type: "g5.2xlarge", state: "stopped" });
    calls.length = 0;
    await resize();
    expect(calls.map((c) => c.action)).toEqual(["DescribeInstances", "StartInstances"]);
    expect(inst.state).toBe("pending");
  });

  it("an instance already of the new type and running is left alone", async () => {
    inst.type = "g5.2xlarge";
    expect((await resize()).detail).toContain("already g5.2xlarge");
    expect(calls.map((c) => c.action)).toEqual(["DescribeInstances"]);
  });

  it("an unknown instance is a final failure; a host on another cloud is refused unsent", async () => {
    await expect(resize(target({ instanceId: "i-0000000000000dead" }))).rejects.toMatchObject({
      retryable: false,
      code: "InvalidInstanceID.NotFound",
    });
    calls.length = 0;
    await expect(resize(target({ provider: "gcp" }))).rejects.toThrow(/not AWS/);
    expect(calls).toEqual([]);
  });
});
