import "../../testing/no-egress.ts";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tencentCvmExecutor } from "./tencent-cvm.ts";
import type { ActionTarget } from "./types.ts";

// The real tencentcloud-sdk-nodejs-cvm client against a local server that checks the API 3.0
// call as Tencent Cloud documents it (POST /, X-TC-Action, X-TC-Version 2017-03-12, X-TC-Region,
// TC3-HMAC-SHA256 signature, a JSON body) and answers {"Response":{"RequestId"}} or, as the API
// does for every error, HTTP 200 with {"Response":{"Error":{"Code","Message"},"RequestId"}}.

let server: Server;
let endpoint = "";
interface Seen {
  action: string | undefined;
  version: string | undefined;
  region: string | undefined;
  auth: string;
  body: Record<string, unknown>;
}
const seen: Seen[] = [];
function first(): Seen {
  const s = seen[0];
  if (!s) throw new Error("the server saw no request");
  return s;
}
let answer: () => { status: number; body: unknown } = () => ({
  status: 200,
  body: { Response: { RequestId: "req-1" } },
});

const target = (action: ActionTarget["action"] = "stop"): ActionTarget => ({
  policyId: "p1",
  episodeId: "e1",
  hostId: "h1",
  hostname: "gpu-tc",
  provider: "tencent",
  region: "ap-guangzhou",
  zone: "ap-guangzhou-3",
  instanceId: "ins-r8hr2upy",
  action,
});
const executor = () =>
  tencentCvmExecutor({
    endpoint,
    credentials: { secretId: "test-secret-id", secretKey: "test-secret-key" },
  });
const error = (Code: string) => () => ({
  status: 200,
  body: { Response: { Error: { Code, Message: `${Code} here` }, RequestId: "req-e" } },
});

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({
        action: req.headers["x-tc-action"] as string | undefined,
        version: req.headers["x-tc-version"] as string | undefined,
        region: req.headers["x-tc-region"] as string | undefined,
        auth: String(req.headers.authorization ?? ""),
        body: JSON.parse(body || "{}") as Record<string, unknown>,
      });
      const a = answer();
      res.writeHead(a.status, { "content-type": "application/json" }).end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

describe("the Tencent Cloud CVM executor", () => {
  it("stops the instance SOFT with STOP_CHARGING, signed with the given key", async () => {
    seen.length = 0;
    answer = () => ({ status: 200, body: { Response: { RequestId: "6f2d4b1e-req" } } });
    const r = await executor().run(target());
    expect(r.detail).toBe("StopInstances ins-r8hr2upy (SOFT, STOP_CHARGING): 6f2d4b1e-req");
    expect(seen).toHaveLength(1);
    const s = first();
    expect([s.action, s.version, s.region]).toEqual([
      "StopInstances",
      "2017-03-12",
      "ap-guangzhou",
    ]);
    expect(s.auth).toMatch(
      /^TC3-HMAC-SHA256 Credential=test-secret-id\/\d{4}-\d\d-\d\d\/.+, SignedHeaders=.+, Signature=[0-9a-f]{64}$/,
    );
    expect(s.body).toEqual({
      InstanceIds: ["ins-r8hr2upy"],
      StopType: "SOFT",
      StoppedMode: "STOP_CHARGING",
    });
  });

  it("takes its keys from the SDK's default chain (here the environment) when given none", async () => {
    seen.length = 0;
    Object.assign(process.env, {
      TENCENTCLOUD_SECRET_ID: "env-secret-id",
      TENCENTCLOUD_SECRET_KEY: "env-secret-key",
    });
    try {
      answer = () => ({ status: 200, body: { Response: { RequestId: "req-env" } } });
      await tencentCvmExecutor({ endpoint }).run(target());
      expect(first().auth).toMatch(/^TC3-HMAC-SHA256 Credential=env-secret-id\//);
    } finally {
      delete process.env.TENCENTCLOUD_SECRET_ID;
      delete process.env.TENCENTCLOUD_SECRET_KEY;
    }
  });

  it("terminates the instance when the action is terminate", async () => {
    seen.length = 0;
    answer = () => ({ status: 200, body: { Response: { RequestId: "req-t" } } });
    expect((await executor().run(target("terminate"))).detail).toBe(
      "TerminateInstances ins-r8hr2upy: req-t",
    );
    expect(first().action).toBe("TerminateInstances");
    expect(first().body).toEqual({ InstanceIds: ["ins-r8hr2upy"] });
  });

  it("reads Response.Error of an HTTP 200: final for a wrong instance, retryable when throttled", async () => {
    answer = error("InvalidInstanceId.NotFound");
    await expect(executor().run(target())).rejects.toMatchObject({
      retryable: false,
      code: "InvalidInstanceId.NotFound",
      message: expect.stringContaining("InvalidInstanceId.NotFound here"),
    });
    answer = error("AuthFailure.SecretIdNotFound");
    await expect(executor().run(target())).rejects.toMatchObject({ retryable: false });
    seen.length = 0;
    answer = error("RequestLimitExceeded");
    await expect(executor().run(target())).rejects.toMatchObject({
      retryable: true,
      code: "RequestLimitExceeded",
    });
    expect(seen).toHaveLength(1); // no SDK retry: the lifecycle retries
  });

  it("refuses a host of another cloud or without an instance id, before any request", async () => {
    seen.length = 0;
    await expect(executor().run({ ...target(), provider: "alibaba" })).rejects.toMatchObject({
      retryable: false,
      message: "gpu-tc is on alibaba, not Tencent Cloud",
    });
    await expect(executor().run({ ...target(), instanceId: null })).rejects.toMatchObject({
      retryable: false,
    });
    expect(seen).toEqual([]);
  });
});
