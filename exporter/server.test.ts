import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "./log.ts";
import { startExporter, type RunningExporter } from "./server.ts";
import { HAVE_PROMTOOL, promtool, sample } from "./test/helpers.ts";

describe("HTTP server with a simulated fleet", () => {
  let e: RunningExporter;
  beforeAll(async () => {
    e = await startExporter({
      listenAddress: "127.0.0.1:0",
      simulate: true,
      simulateHosts: 24,
      host: { labels: { site: "lab" } },
      logger: silentLogger,
    });
  });
  afterAll(() => e.close());

  const get = (path: string, init?: RequestInit) => fetch(e.url + path, init);

  it("serves host 0 on /metrics and host i on /hosts/<i>/metrics", async () => {
    const m0 = await (await get("/metrics")).text();
    const h0 = await (await get("/hosts/0/metrics")).text();
    const h5 = await (await get("/hosts/5/metrics")).text();
    const host0 = { hostname: "gpu-aws-use1-001", provider: "aws", instance_type: "p4d.24xlarge" };
    expect(sample(m0, "gpu_host_info", host0)).toBe(1);
    expect(sample(h0, "gpu_host_info", host0)).toBe(1);
    expect(
      sample(h5, "gpu_host_info", {
        pricing_model: "spot",
        team: "inference",
        project: "chat-serving",
        owner: "carol@example.com",
        site: "lab",
      }),
    ).toBe(1);
    expect(sample(m0, "gpu_info")).toBe(1);
    expect(sample(m0, "gpu_exporter_collector_success", { collector: "simulated" })).toBe(1);
    expect(sample(m0, "gpu_exporter_build_info", { node_version: process.version })).toBe(1);
    // the DGX host mixes MIG and whole GPUs
    const dgx = await (await get("/hosts/20/metrics")).text();
    expect(sample(dgx, "gpu_mig_memory_total_bytes")).toBeGreaterThan(0);
    expect(sample(dgx, "gpu_info", { mig_mode: "enabled" })).toBe(1);
  });

  it("lists every host in /targets.json for http_sd / file_sd", async () => {
    const res = await get("/targets.json");
    expect(res.headers.get("content-type")).toMatch(/json/);
    const targets = (await res.json()) as { targets: string[]; labels: Record<string, string> }[];
    expect(targets).toHaveLength(24);
    expect(targets[3]).toEqual({
      targets: [`127.0.0.1:${e.port}`],
      labels: {
        __metrics_path__: "/hosts/3/metrics",
        instance: `127.0.0.1:${e.port}/hosts/3/metrics`,
        __meta_gpufleet_hostname: "gpu-aws-use1-004",
      },
    });
  });

  it("answers /healthz, 404 for unknown paths and hosts, 405 for POST", async () => {
    expect((await get("/healthz")).status).toBe(200);
    expect((await get("/nope")).status).toBe(404);
    expect((await get("/hosts/24/metrics")).status).toBe(404);
    expect((await get("/hosts/x/metrics")).status).toBe(404);
    expect((await get("/metrics", { method: "POST" })).status).toBe(405);
    expect((await get("/")).status).toBe(200);
  });

  it("gzips when asked (Prometheus always asks)", async () => {
    const res = await get("/metrics", { headers: { "accept-encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(await res.text()).toContain("gpu_host_info"); // fetch decompresses
  });

  it.skipIf(!HAVE_PROMTOOL)("every simulated host passes promtool check metrics", async () => {
    for (let i = 0; i < 24; i++) {
      const text = await (await get(`/hosts/${i}/metrics`)).text();
      expect({ host: i, ...promtool(text) }).toEqual({ host: i, status: 0, problems: [] });
    }
  });
});

describe("startExporter options", () => {
  it("refuses invalid options with a clear error", async () => {
    await expect(startExporter({ intervalMs: 10 })).rejects.toThrow(/collect.interval/);
    await expect(startExporter({ listenAddress: "nope" })).rejects.toThrow(/listen-address/);
  });

  it("serves the telemetry path given, and the same host under /hosts/0/metrics", async () => {
    const e = await startExporter({
      listenAddress: "127.0.0.1:0",
      telemetryPath: "/gpu-metrics",
      simulate: true,
      logger: silentLogger,
    });
    try {
      expect((await fetch(`${e.url}/gpu-metrics`)).status).toBe(200);
      expect((await fetch(`${e.url}/metrics`)).status).toBe(404);
    } finally {
      await e.close();
    }
  });
});
