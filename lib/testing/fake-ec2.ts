import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A local stand-in for the EC2 Query API (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/
// API_StopInstances.html), on 127.0.0.1: it checks each request as AWS documents it (POST /,
// form-encoded Action, Version=2016-11-15, InstanceId.1, a SigV4 Authorization header whose
// credential scope names the region and "ec2") and answers with the documented success body, or
// with the documented error body for the next `failNext` calls.

export interface Ec2Call {
  at: Date;
  action: string;
  instanceId: string;
  region: string;
  authorization: string;
  ok: boolean;
}

export interface FakeEc2 {
  url: string;
  calls: Ec2Call[];
  /** answer the next n calls with this error code (HTTP 503 for throttling codes, else 400) */
  fail(n: number, code?: string): void;
  close(): Promise<void>;
}

const STATE = { StopInstances: "stopping", TerminateInstances: "shutting-down" } as const;
const SET = { StopInstances: "instancesSet", TerminateInstances: "instancesSet" } as const;

function successXml(action: keyof typeof STATE, instanceId: string): string {
  const [code, name] = action === "StopInstances" ? [64, STATE[action]] : [32, STATE[action]];
  return `<?xml version="1.0" encoding="UTF-8"?>
<${action}Response xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">
  <requestId>59dbff89-35bd-4eac-99ed-be587EXAMPLE</requestId>
  <${SET[action]}>
    <item>
      <instanceId>${instanceId}</instanceId>
      <currentState><code>${code}</code><name>${name}</name></currentState>
      <previousState><code>16</code><name>running</name></previousState>
    </item>
  </${SET[action]}>
</${action}Response>`;
}

function errorXml(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Response><Errors><Error><Code>${code}</Code><Message>${message}</Message></Error></Errors><RequestID>ea966190-f9aa-478e-9ede-example</RequestID></Response>`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let s = "";
    req.on("data", (c: Buffer) => (s += c.toString("utf8")));
    req.on("end", () => resolve(s));
    req.on("error", reject);
  });
}

export async function startFakeEc2(opts: { delayMs?: number } = {}): Promise<FakeEc2> {
  const calls: Ec2Call[] = [];
  let failing = 0;
  let failCode = "RequestLimitExceeded";
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = new URLSearchParams(await readBody(req));
      // slow enough for two callers to interleave, where a test asks for it
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
      const auth = req.headers.authorization ?? "";
      const scope = /Credential=[^/]+\/\d{8}\/([a-z0-9-]+)\/ec2\/aws4_request/.exec(auth);
      const action = body.get("Action") ?? "";
      const instanceId = body.get("InstanceId.1") ?? "";
      const problems = [
        req.method !== "POST" && "method",
        req.url !== "/" && "path",
        !String(req.headers["content-type"]).startsWith("application/x-www-form-urlencoded") &&
          "content-type",
        !(action in STATE) && "Action",
        body.get("Version") !== "2016-11-15" && "Version",
        !/^i-[0-9a-f]{8,17}$/.test(instanceId) && "InstanceId.1",
        !auth.startsWith("AWS4-HMAC-SHA256 ") && "Authorization",
        !scope && "credential scope",
      ].filter(Boolean);
      const call = {
        at: new Date(),
        action,
        instanceId,
        region: scope?.[1] ?? "",
        authorization: auth,
        ok: false,
      };
      calls.push(call);
      res.setHeader("content-type", "text/xml;charset=UTF-8");
      if (problems.length > 0) {
        res.writeHead(400).end(errorXml("InvalidParameterValue", `bad ${problems.join(", ")}`));
        return;
      }
      if (failing > 0) {
        failing--;
        const status = failCode === "RequestLimitExceeded" ? 503 : 400;
        res.writeHead(status).end(errorXml(failCode, "Request limit exceeded."));
        return;
      }
      call.ok = true;
      res.writeHead(200).end(successXml(action as keyof typeof STATE, instanceId));
    })();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    fail(n, code = "RequestLimitExceeded") {
      failing = n;
      failCode = code;
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}
