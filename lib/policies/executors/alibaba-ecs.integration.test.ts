import "../../testing/no-egress.ts";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alibabaEcsExecutor } from "./alibaba-ecs.ts";
import type { ActionTarget } from "./types.ts";

// The real @alicloud/ecs20140526 client against a local server that checks the RPC call as the
// ECS API documents it (x-acs-action, x-acs-version 2014-05-26, ACS3-HMAC-SHA256 signature,
// InstanceId and StoppedMode in the query) and answers {"RequestId"} or an error body
// {"RequestId","HostId","Code","Message","Recommend"} with its HTTP status.

let server: Server;
let endpoint = "";
interface Seen {
  action: string | undefined;
  version: string | undefined;
  auth: string;
  query: URLSearchParams;
}
const seen: Seen[] = [];
function first(): Seen {
  const s = seen[0];
  if (!s) throw new Error("the server saw no request");
  return s;
}
let answer: (req: IncomingMessage) => { status: number; body: unknown } = () => ({
  status: 200,
  body: { RequestId: "req-1" },
});

const target = (action: ActionTarget["action"] = "stop"): ActionTarget => ({
  policyId: "p1",
  episodeId: "e1",
  hostId: "h1",
  hostname: "gpu-ali",
  provider: "alibaba",
  region: "cn-shanghai",
  zone: "cn-shanghai-l",
  instanceId: "i-uf6f5trc95ug8t33qnbl",
  action,
});
const executor = () =>
  alibabaEcsExecutor({
    endpoint,
    credentials: { accessKeyId: "test-key-id", accessKeySecret: "test-key-secret" },
  });

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      seen.push({
        action: req.headers["x-acs-action"] as string | undefined,
        version: req.headers["x-acs-version"] as string | undefined,
        auth: String(req.headers.authorization ?? ""),
        query: new URL(req.url ?? "/", "http://x").searchParams,
      });
      const a = answer(req);
      res.writeHead(a.status, { "content-type": "application/json" }).end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

const error = (status: number, Code: string) => () => ({
  status,
  body: {
    RequestId: "req-e",
    HostId: "ecs.aliyuncs.com",
    Code,
    Message: `${Code} here`,
    Recommend: "https://api.aliyun.com/troubleshoot",
  },
});

describe("the Alibaba Cloud ECS executor", () => {
  it("stops the instance with StoppedMode=StopCharging, signed with the given key", async () => {
    seen.length = 0;
    answer = () => ({ status: 200, body: { RequestId: "473469C7-AA6F-4DC5-B3DB-A3DC0DE3C83E" } });
    const r = await executor().run(target());
    expect(r.detail).toBe(
      "StopInstance i-uf6f5trc95ug8t33qnbl (StopCharging): 473469C7-AA6F-4DC5-B3DB-A3DC0DE3C83E",
    );
    expect(seen).toHaveLength(1);
    const s = first();
    expect(s.action).toBe("StopInstance");
    expect(s.version).toBe("2014-05-26");
    expect(s.auth).toMatch(
      /^ACS3-HMAC-SHA256 Credential=test-key-id,SignedHeaders=.+,Signature=[0-9a-f]{64}$/,
    );
    expect(s.query.get("InstanceId")).toBe("i-uf6f5trc95ug8t33qnbl");
    expect(s.query.get("StoppedMode")).toBe("StopCharging");
  });

  it("takes its keys from the SDK's default chain (here the environment) when given none", async () => {
    seen.length = 0;
    Object.assign(process.env, {
      ALIBABA_CLOUD_ACCESS_KEY_ID: "env-key-id",
      ALIBABA_CLOUD_ACCESS_KEY_SECRET: "env-key-secret",
    });
    try {
      answer = () => ({ status: 200, body: { RequestId: "req-env" } });
      await alibabaEcsExecutor({ endpoint }).run(target());
      expect(first().auth).toMatch(/^ACS3-HMAC-SHA256 Credential=env-key-id,/);
    } finally {
      delete process.env.ALIBABA_CLOUD_ACCESS_KEY_ID;
      delete process.env.ALIBABA_CLOUD_ACCESS_KEY_SECRET;
    }
  });

  it("deletes the instance (Force) when the action is terminate", async () => {
    seen.length = 0;
    answer = () => ({ status: 200, body: { RequestId: "req-d" } });
    expect((await executor().run(target("terminate"))).detail).toBe(
      "DeleteInstance i-uf6f5trc95ug8t33qnbl: req-d",
    );
    expect(first().action).toBe("DeleteInstance");
    expect(first().query.get("Force")).toBe("true");
  });

  it("fails finally on a wrong instance state, retryably on throttling and 503, once each", async () => {
    answer = error(403, "IncorrectInstanceStatus");
    await expect(executor().run(target())).rejects.toMatchObject({
      retryable: false,
      code: "IncorrectInstanceStatus",
      message: expect.stringContaining("HTTP 403"),
    });
    answer = error(400, "Throttling.User");
    await expect(executor().run(target())).rejects.toMatchObject({
      retryable: true,
      code: "Throttling.User",
    });
    seen.length = 0;
    answer = error(503, "ServiceUnavailable");
    await expect(executor().run(target())).rejects.toMatchObject({
      retryable: true,
      code: "ServiceUnavailable",
    });
    expect(seen).toHaveLength(1); // no SDK retry: the lifecycle retries
  });

  it("refuses a host without an instance id or region, before any request", async () => {
    seen.length = 0;
    await expect(executor().run({ ...target(), instanceId: null })).rejects.toMatchObject({
      retryable: false,
      message: "gpu-ali has no instance id",
    });
    await expect(executor().run({ ...target(), region: "unknown" })).rejects.toMatchObject({
      retryable: false,
    });
    expect(seen).toEqual([]);
  });
});
