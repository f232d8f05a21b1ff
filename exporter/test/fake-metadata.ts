// Fake cloud metadata services on 127.0.0.1 for the exporter's tests. Each answers exactly the
// documented paths its provider module reads (404 elsewhere) and refuses, as the real one does,
// a request without the required header or token. Nothing here ever names a real address.

import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Provider } from "../host/options.ts";

export interface FakeFacts {
  instanceType: string;
  instanceId: string;
  region: string;
  zone: string;
  spot: boolean;
}

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

interface Canned {
  status?: number;
  body: string;
  type?: string;
}

export interface FakeMetadata {
  readonly provider: Provider;
  readonly url: string;
  readonly requests: FakeRequest[];
  /** every answer by path (with its query); tests may replace one */
  readonly answers: Map<string, Canned>;
  readonly noticePath: string;
  /** "hang": accept requests and never answer */
  mode: "ok" | "hang";
  /** announce an interruption at this time, or withdraw it (undefined) */
  setNotice(at: Date | undefined): void;
  count(path: string): number;
  close(): Promise<void>;
}

const AWS_TOKEN = "AQAEAFake-aws-session-token==";
const ALI_TOKEN = "fake-aliyun-token-0123456789";
const VM_NAME = "gpu-vm-1";

interface Spec {
  answers: Record<string, string>;
  noticePath: string;
  notice: (at: Date | undefined) => Canned;
  /** a refusal, or undefined when the request may be answered */
  refuse: (method: string, path: string, h: IncomingHttpHeaders) => Canned | undefined;
  headers?: Record<string, string>;
}

function tokenPut(
  ttlHeader: string,
  token: string,
  method: string,
  h: IncomingHttpHeaders,
): Canned | undefined {
  if (method !== "PUT") return { status: 405, body: "" };
  const ttl = Number(h[ttlHeader]);
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > 21600) return { status: 400, body: "" };
  return { status: 200, body: token };
}

function specFor(p: Provider, f: FakeFacts): Spec {
  const m = "/latest/meta-data/";
  switch (p) {
    case "aws":
      return {
        answers: {
          [m + "instance-type"]: f.instanceType,
          [m + "instance-id"]: f.instanceId,
          [m + "placement/region"]: f.region,
          [m + "placement/availability-zone"]: f.zone,
          [m + "instance-life-cycle"]: f.spot ? "spot" : "on-demand",
        },
        noticePath: m + "spot/instance-action",
        notice: (at) =>
          at
            ? {
                body: JSON.stringify({
                  action: "terminate",
                  time: at.toISOString().slice(0, 19) + "Z",
                }),
              }
            : { status: 404, body: "" },
        refuse: (method, path, h) => {
          if (path === "/latest/api/token")
            return tokenPut("x-aws-ec2-metadata-token-ttl-seconds", AWS_TOKEN, method, h);
          if (method !== "GET") return { status: 405, body: "" };
          return h["x-aws-ec2-metadata-token"] === AWS_TOKEN
            ? undefined
            : { status: 401, body: "" };
        },
      };
    case "gcp": {
      const i = "/computeMetadata/v1/instance/";
      return {
        answers: {
          [i + "machine-type"]: `projects/123456789012/machineTypes/${f.instanceType}`,
          [i + "zone"]: `projects/123456789012/zones/${f.zone}`,
          [i + "id"]: f.instanceId,
          [i + "scheduling/preemptible"]: f.spot ? "TRUE" : "FALSE",
          [i + "scheduling/provisioning-model"]: f.spot ? "SPOT" : "STANDARD",
        },
        noticePath: i + "preempted",
        notice: (at) => ({ body: at ? "TRUE" : "FALSE" }),
        refuse: (method, _path, h) => {
          if (method !== "GET") return { status: 405, body: "" };
          if (h["metadata-flavor"] !== "Google" || h["x-forwarded-for"] !== undefined) {
            return { status: 403, body: "Missing Metadata-Flavor:Google header." };
          }
          return undefined;
        },
        headers: { "Metadata-Flavor": "Google" },
      };
    }
    case "azure": {
      const instance = {
        compute: {
          vmSize: f.instanceType,
          location: f.region,
          zone: f.zone,
          vmId: f.instanceId,
          priority: f.spot ? "Spot" : "Regular",
          name: VM_NAME,
          osType: "Linux",
        },
        network: { interface: [] },
      };
      return {
        answers: { "/metadata/instance?api-version=2021-02-01": JSON.stringify(instance) },
        noticePath: "/metadata/scheduledevents?api-version=2020-07-01",
        notice: (at) => ({
          type: "application/json",
          body: JSON.stringify({
            DocumentIncarnation: at ? 2 : 1,
            Events: at
              ? [
                  {
                    EventId: "602d9444-d2cd-49c7-8624-8643e7171297",
                    EventType: "Preempt",
                    ResourceType: "VirtualMachine",
                    Resources: [VM_NAME],
                    EventStatus: "Scheduled",
                    NotBefore: at.toUTCString(),
                    Description: "",
                    EventSource: "Platform",
                    DurationInSeconds: -1,
                  },
                ]
              : [],
          }),
        }),
        refuse: (method, path, h) => {
          if (method !== "GET") return { status: 405, body: "" };
          if (h.metadata !== "true") {
            return {
              status: 400,
              body: '{"error":"Bad request. Required metadata header not specified"}',
            };
          }
          if (!/[?&]api-version=/.test(path)) {
            return { status: 400, body: '{"error":"Bad request. api-version was not specified"}' };
          }
          return undefined;
        },
      };
    }
    case "alibaba":
      return {
        answers: {
          [m + "instance/instance-type"]: f.instanceType,
          [m + "region-id"]: f.region,
          [m + "zone-id"]: f.zone,
          [m + "instance-id"]: f.instanceId,
        },
        noticePath: m + "instance/spot/termination-time",
        notice: (at) =>
          at ? { body: at.toISOString().slice(0, 19) + "Z" } : { status: 404, body: "" },
        refuse: (method, path, h) => {
          if (path === "/latest/api/token")
            return tokenPut("x-aliyun-ecs-metadata-token-ttl-seconds", ALI_TOKEN, method, h);
          if (method !== "GET") return { status: 405, body: "" };
          const t = h["x-aliyun-ecs-metadata-token"];
          if (t === undefined) return { status: 403, body: "" }; // hardened mode
          return t === ALI_TOKEN ? undefined : { status: 401, body: "" };
        },
      };
    case "tencent": {
      // the documented notice time is the instance's clock, UTC+8, without a zone
      const utc8 = (at: Date) =>
        new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace("T", " ");
      return {
        answers: {
          [m + "instance/instance-type"]: f.instanceType,
          [m + "placement/region"]: f.region,
          [m + "placement/zone"]: f.zone,
          [m + "instance-id"]: f.instanceId,
          [m + "payment/charge-type"]: f.spot ? "SPOTPAID" : "POSTPAID_BY_HOUR",
        },
        noticePath: m + "spot/termination-time",
        notice: (at) => (at ? { body: utc8(at) } : { status: 404, body: "" }),
        refuse: (method) => (method === "GET" ? undefined : { status: 405, body: "" }),
      };
    }
  }
}

function send(res: ServerResponse, c: Canned, headers: Record<string, string> = {}): void {
  res.writeHead(c.status ?? 200, { "content-type": c.type ?? "text/plain", ...headers });
  res.end(c.body);
}

export async function startFakeMetadata(
  provider: Provider,
  facts: FakeFacts,
): Promise<FakeMetadata> {
  const spec = specFor(provider, facts);
  const answers = new Map<string, Canned>(
    Object.entries(spec.answers).map(([k, body]) => [k, { body }]),
  );
  answers.set(spec.noticePath, spec.notice(undefined));
  const requests: FakeRequest[] = [];
  const fake = {
    provider,
    url: "",
    requests,
    answers,
    noticePath: spec.noticePath,
    mode: "ok" as "ok" | "hang",
    setNotice: (at: Date | undefined) => answers.set(spec.noticePath, spec.notice(at)),
    count: (path: string) => requests.filter((r) => r.path === path).length,
    close: async () => {},
  };
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    requests.push({ method: req.method ?? "", path, headers: req.headers });
    if (fake.mode === "hang") return; // keep the socket open, answer nothing
    const refused = spec.refuse(req.method ?? "", path, req.headers);
    if (refused) return send(res, refused, spec.headers);
    const canned = answers.get(path);
    send(res, canned ?? { status: 404, body: "Not Found" }, spec.headers);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
