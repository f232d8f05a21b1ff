import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A local stand-in for the Auto Scaling Query API (https://docs.aws.amazon.com/autoscaling/ec2/
// APIReference/API_SetDesiredCapacity.html) on 127.0.0.1: it checks each request as AWS documents
// it (POST /, form-encoded Action=SetDesiredCapacity, Version=2011-01-01, AutoScalingGroupName,
// DesiredCapacity, a SigV4 Authorization header whose credential scope names the region and
// "autoscaling") and answers with the documented success body, or the documented error body
// (ErrorResponse/Error/Code, HTTP 400) for the next `fail` calls.

export interface AsgCall {
  group: string;
  desired: number;
  honorCooldown: string | null;
  region: string;
  authorization: string;
  ok: boolean;
}

export interface FakeAsg {
  url: string;
  calls: AsgCall[];
  fail(n: number, code?: string): void;
  close(): Promise<void>;
}

const NS = "http://autoscaling.amazonaws.com/doc/2011-01-01/";

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let s = "";
    req.on("data", (c: Buffer) => (s += c.toString("utf8")));
    req.on("end", () => resolve(s));
    req.on("error", reject);
  });
}

function errorXml(code: string, message: string) {
  return `<ErrorResponse xmlns="${NS}"><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>7c6e177f-example</RequestId></ErrorResponse>`;
}

export async function startFakeAsg(): Promise<FakeAsg> {
  const calls: AsgCall[] = [];
  let failing = 0;
  let failCode = "ScalingActivityInProgress";
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = new URLSearchParams(await readBody(req));
      const auth = req.headers.authorization ?? "";
      const scope = /Credential=[^/]+\/\d{8}\/([a-z0-9-]+)\/autoscaling\/aws4_request/.exec(auth);
      const desired = body.get("DesiredCapacity") ?? "";
      const group = body.get("AutoScalingGroupName") ?? "";
      const problems = [
        req.method !== "POST" && "method",
        req.url !== "/" && "path",
        !String(req.headers["content-type"]).startsWith("application/x-www-form-urlencoded") &&
          "content-type",
        body.get("Action") !== "SetDesiredCapacity" && "Action",
        body.get("Version") !== "2011-01-01" && "Version",
        !/^[^\p{Cc}]{1,255}$/u.test(group) && "AutoScalingGroupName",
        !/^\d+$/.test(desired) && "DesiredCapacity",
        !auth.startsWith("AWS4-HMAC-SHA256 ") && "Authorization",
        !scope && "credential scope",
      ].filter(Boolean);
      const call: AsgCall = {
        group,
        desired: Number(desired),
        honorCooldown: body.get("HonorCooldown"),
        region: scope?.[1] ?? "",
        authorization: auth,
        ok: false,
      };
      calls.push(call);
      res.setHeader("content-type", "text/xml");
      if (problems.length > 0) {
        res.writeHead(400).end(errorXml("ValidationError", `bad ${problems.join(", ")}`));
        return;
      }
      if (failing > 0) {
        failing--;
        res.writeHead(400).end(errorXml(failCode, "a scaling activity is in progress"));
        return;
      }
      call.ok = true;
      res
        .writeHead(200)
        .end(
          `<SetDesiredCapacityResponse xmlns="${NS}"><ResponseMetadata><RequestId>7c6e177f-f082-11e1-ac58-3714bEXAMPLE</RequestId></ResponseMetadata></SetDesiredCapacityResponse>`,
        );
    })();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    fail(n, code = "ScalingActivityInProgress") {
      failing = n;
      failCode = code;
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}
