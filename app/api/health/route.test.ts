import { execFileSync } from "node:child_process";
import { UNUSED_WINDOW_READS } from "@/lib/testing/fake-metrics.ts";
import { rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { MetricsSource } from "@/lib/metrics/source.ts";
import type { TestSession } from "@/lib/testing/auth.ts";

// /api/health: anyone learns only whether the app and its metrics source are well; a signed-in
// user or token also gets the details. Degraded is still HTTP 200 (see the route's comment).

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-health-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

const current = vi.hoisted(() => ({
  source: null as MetricsSource | null,
  broken: null as Error | null,
}));
vi.mock("@/lib/metrics/index.ts", () => ({
  getMetricsSource: () => {
    if (current.broken) throw current.broken;
    if (!current.source) throw new Error("no source set");
    return current.source;
  },
}));

const PASSWORD = "hunter2-but-longer";
type Get = (req: Request) => Promise<Response>;
let GET: Get;
let viewer: TestSession;
let readToken: string;
let refusing: Server;
let refusingUrl: string;
let closedPort: number;
let disconnect: () => Promise<void> = async () => {};
type Db = (typeof import("@/lib/db.ts"))["db"];
let db: Db;

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  const { sessionFor } = await import("@/lib/testing/auth.ts");
  viewer = await sessionFor("viewer");
  const { createApiToken } = await import("@/lib/auth/tokens.ts");
  readToken = (await createApiToken({ name: "r", scope: "read", createdBy: "test" })).token;
  db = (await import("@/lib/db.ts")).db;
  disconnect = () => db.$disconnect();
  await db.host.create({
    data: { hostname: "secret-gpu-node-7", target: "http://10.1.2.3:9445/metrics" },
  });
  await db.jobState.upsert({
    where: { name: "collector.lastTick" },
    create: { name: "collector.lastTick", value: "2026-01-02T03:04:05.000Z" },
    update: { value: "2026-01-02T03:04:05.000Z" },
  });
  GET = ((await import("./route.ts")) as unknown as { GET: Get }).GET;
  // a Prometheus that refuses every request
  refusing = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(401).end("Unauthorized\n"));
  });
  await new Promise<void>((r) => refusing.listen(0, "127.0.0.1", r));
  refusingUrl = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
  closedPort = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
}, 60_000);

afterAll(async () => {
  refusing?.closeAllConnections();
  await new Promise((r) => refusing?.close(r));
  await disconnect();
  for (const f of [file, `${file}-journal`, `${file}-wal`, `${file}-shm`])
    rmSync(f, { force: true });
});

const signedOut = () => new Request("http://127.0.0.1:3000/api/health");
const asViewer = () =>
  new Request("http://127.0.0.1:3000/api/health", { headers: { cookie: viewer.cookie } });
const withToken = (token: string) =>
  new Request("http://127.0.0.1:3000/api/health", {
    headers: { authorization: `Bearer ${token}` },
  });

async function answer(req: Request): Promise<{ status: number; text: string; body: unknown }> {
  const res = await GET(req);
  expect(res.headers.get("cache-control")).toBe("no-store");
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as unknown };
}

async function prometheusSource(url: string): Promise<MetricsSource> {
  const { createPromClient } = await import("@/lib/metrics/prometheus/api.ts");
  const { createPrometheusSource } = await import("@/lib/metrics/prometheus/source.ts");
  const client = createPromClient(url);
  return createPrometheusSource(db, url.replace(/\/\/.*@/, "//"), client);
}

const healthy: MetricsSource = {
  mode: "embedded",
  health: () =>
    Promise.resolve({ ok: true, lastSuccess: new Date("2026-01-02T03:04:00Z"), error: null }),
  currentGpus: () => Promise.resolve([]),
  fleetSeries: () => Promise.reject(new Error("not used")),
  gpuSeries: () => Promise.resolve([]),
  processes: () => Promise.resolve([]),
  ...UNUSED_WINDOW_READS,
};

describe("GET /api/health", () => {
  it("says ok, and nothing else, to anyone signed out", async () => {
    current.source = healthy;
    expect(await answer(signedOut())).toEqual({
      status: 200,
      text: '{"status":"ok"}',
      body: { status: "ok" },
    });
    // a bad token or a made-up cookie is answered as signed out, not with 401
    expect((await answer(withToken("gft_not-a-token"))).body).toEqual({ status: "ok" });
    const fake = new Request(signedOut(), { headers: { cookie: "better-auth.session_token=x" } });
    expect((await answer(fake)).body).toEqual({ status: "ok" });
  });

  it("gives the details to a signed-in user", async () => {
    current.source = healthy;
    expect((await answer(asViewer())).body).toEqual({
      status: "ok",
      mode: "embedded",
      hosts: 1,
      source: { ok: true, lastSuccess: "2026-01-02T03:04:00.000Z", error: null },
      collectorLastTick: "2026-01-02T03:04:05.000Z",
    });
  });

  it("says degraded, still with HTTP 200, when Prometheus refuses the credentials", async () => {
    current.source = await prometheusSource(`${refusingUrl.replace("//", `//alice:${PASSWORD}@`)}`);
    const out = await answer(signedOut());
    expect(out.status).toBe(200);
    expect(out.text).toBe('{"status":"degraded"}');
    for (const secret of [PASSWORD, "127.0.0.1", "401", "secret-gpu-node-7", "10.1.2.3"])
      expect(out.text).not.toContain(secret);

    for (const req of [asViewer(), withToken(readToken)]) {
      const full = await answer(req);
      expect(full.status).toBe(200);
      expect(full.body).toMatchObject({
        status: "degraded",
        mode: "prometheus",
        hosts: 1,
        source: {
          ok: false,
          lastSuccess: null,
          error: `401 from Prometheus at ${refusingUrl}: the credentials were refused (check the user and password in PROMETHEUS_URL)`,
        },
      });
      expect(full.text).not.toContain(PASSWORD);
    }
  });

  it("says degraded when Prometheus is unreachable", async () => {
    current.source = await prometheusSource(`http://127.0.0.1:${closedPort}`);
    expect(await answer(signedOut())).toMatchObject({ status: 200, body: { status: "degraded" } });
    const full = (await answer(asViewer())).body as { source: { error: string } };
    expect(full.source.error).toBe(
      `Prometheus unreachable at http://127.0.0.1:${closedPort}: connect ECONNREFUSED 127.0.0.1:${closedPort}`,
    );
  });

  it("says degraded when the source cannot be set up, and only a signed-in user sees why", async () => {
    current.broken = new Error("PROMETHEUS_PASSWORD_FILE: cannot read /run/secrets/p (ENOENT)");
    try {
      expect((await answer(signedOut())).text).toBe('{"status":"degraded"}');
      const full = (await answer(asViewer())).body as { source: { ok: boolean; error: string } };
      expect(full.source).toMatchObject({ ok: false, error: current.broken.message });
    } finally {
      current.broken = null;
    }
  });
});
