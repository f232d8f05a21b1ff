import "../../testing/no-egress.ts";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OAuth2Client } from "google-auth-library";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gcpMigResize } from "./gcp-mig.ts";
import type { ScaleTarget } from "./types.ts";

// The real @google-cloud/compute REST client against a local server that answers as the Compute
// Engine API documents instanceGroupManagers.resize: POST …/instanceGroupManagers/M/resize?size=N
// returns a zone Operation RUNNING, operations.wait returns it DONE; an error is
// {"error":{"code","message","status"}} with that HTTP status.

const BASE = "/compute/v1/projects/proj-1/zones/europe-west4-b";
let server: Server;
let endpoint = "";
const seen: { method: string; url: string; auth: string | undefined }[] = [];
let answer: (req: IncomingMessage) => { status: number; body: unknown } = () => ({
  status: 500,
  body: {},
});

const target: ScaleTarget = {
  policyId: "p1",
  signalId: "s1",
  pool: "asg:train-mig",
  group: "train-mig",
  provider: "gcp",
  region: "europe-west4",
  zone: "europe-west4-b",
  direction: "out",
  fromSize: 2,
  desired: 3,
};

function auth() {
  const c = new OAuth2Client();
  c.setCredentials({ access_token: "test-token", expiry_date: Date.now() + 3_600_000 });
  return c;
}
const resize = (t: ScaleTarget = target) =>
  gcpMigResize(t, { projectId: "proj-1", endpoint, authClient: auth() });

const operation = (status: string) => ({
  kind: "compute#operation",
  name: "operation-42",
  zone: `https://www.googleapis.com${BASE}`,
  operationType: "compute.instanceGroupManagers.resize",
  status,
});

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", auth: req.headers.authorization });
      const a = answer(req);
      res.writeHead(a.status, { "content-type": "application/json" }).end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

describe("the managed instance group resize", () => {
  it("resizes the group to the desired size and waits on the zone operation", async () => {
    seen.length = 0;
    answer = (req) =>
      req.url?.includes("/operations/operation-42/wait")
        ? { status: 200, body: operation("DONE") }
        : { status: 200, body: operation("RUNNING") };
    const r = await resize();
    expect(r.detail).toBe("instanceGroupManagers.resize train-mig to 3: DONE (operation-42)");
    const [call, wait] = seen;
    expect(call?.method).toBe("POST");
    const u = new URL(call?.url ?? "", "http://x");
    expect(u.pathname).toBe(`${BASE}/instanceGroupManagers/train-mig/resize`);
    expect(u.searchParams.get("size")).toBe("3");
    expect(wait?.url.split("?")[0]).toBe(`${BASE}/operations/operation-42/wait`);
    expect(seen.every((s) => s.auth === "Bearer test-token")).toBe(true);
  });

  it("fails finally on 404, retryably on 503", async () => {
    answer = () => ({
      status: 404,
      body: { error: { code: 404, message: "not found", status: "NOT_FOUND" } },
    });
    await expect(resize()).rejects.toMatchObject({ retryable: false });
    answer = () => ({
      status: 503,
      body: { error: { code: 503, message: "backend", status: "UNAVAILABLE" } },
    });
    await expect(resize()).rejects.toMatchObject({ retryable: true });
  });

  it("refuses a pool without a group or zone, before any request", async () => {
    seen.length = 0;
    await expect(resize({ ...target, group: null })).rejects.toMatchObject({ retryable: false });
    await expect(resize({ ...target, zone: null })).rejects.toMatchObject({ retryable: false });
    expect(seen).toHaveLength(0);
  });
});
