// The body a scrape gets is rendered once per collection tick: byte for byte what prom-client
// renders for the host's registry (text and OpenMetrics, gzip decoded), new after each tick, and
// never rendered again by a scrape.

import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "./log.ts";
import { HostMetrics } from "./metrics.ts";
import { Gauge, Registry } from "./prom.ts";
import { startExporter, type RunningExporter } from "./server.ts";
import { HostState } from "./state.ts";
import { sample } from "./test/helpers.ts";
import { VERSION } from "./version.ts";

const PROMETHEUS_ACCEPT =
  "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

/** One GET with the raw bytes as sent (fetch would decode gzip). */
function raw(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      request(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
        res.on("error", reject);
      })
        .on("error", reject)
        .end();
    },
  );
}

function host0(e: RunningExporter) {
  const host = e.hosts[0];
  if (!host) throw new Error("no host 0");
  return host;
}

describe("pre-rendered exposition", () => {
  let e: RunningExporter;
  beforeAll(async () => {
    // a long interval: only the test's own ticks collect
    e = await startExporter({
      listenAddress: "127.0.0.1:0",
      simulate: true,
      simulateHosts: 1,
      intervalMs: 600_000,
      logger: silentLogger,
    });
  });
  afterAll(() => e.close());

  /** prom-client's own rendering of the host's current state, in a registry of its own */
  async function reference(format: "text" | "openmetrics"): Promise<string> {
    const host = host0(e);
    const ref = new HostMetrics({
      hostInfo: host.info,
      compatDcgm: false,
      version: VERSION,
      log: silentLogger,
    });
    await ref.publish(host.state.view(Date.now()));
    if (format === "openmetrics") ref.registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
    return ref.registry.metrics();
  }

  it("serves exactly what prom-client renders, text and OpenMetrics, plain and gzip", async () => {
    await e.tick();
    const url = `${e.url}/metrics`;
    const omPlain = await raw(url, { accept: PROMETHEUS_ACCEPT });
    const omGzip = await raw(url, { accept: PROMETHEUS_ACCEPT, "accept-encoding": "gzip" });
    // text after OpenMetrics: OpenMetrics rendering renames counters inside prom-client
    const textPlain = await raw(url);
    const textGzip = await raw(url, { "accept-encoding": "gzip" });

    const text = await reference("text");
    const om = await reference("openmetrics");
    expect(textPlain.body.toString()).toBe(text);
    expect(textGzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(textGzip.body).toString()).toBe(text);
    expect(omPlain.body.toString()).toBe(om);
    expect(omGzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(omGzip.body).toString()).toBe(om);

    expect(textPlain.headers["content-type"]).toBe(Registry.PROMETHEUS_CONTENT_TYPE);
    expect(omPlain.headers["content-type"]).toBe(Registry.OPENMETRICS_CONTENT_TYPE);
    expect(Number(textPlain.headers["content-length"])).toBe(textPlain.body.length);
    // the counter as each format writes it
    expect(text).toMatch(/^# TYPE gpu_ecc_errors_total counter$/m);
    expect(om).toMatch(/^# TYPE gpu_ecc_errors counter$/m);
    expect(om).toMatch(/^gpu_ecc_errors_total\{/m);
    expect(om.endsWith("# EOF\n")).toBe(true);
  });

  it("renders at the tick, not at the scrape: values change only when a tick ran", async () => {
    const host = host0(e);
    const extra = { index: 99, uuid: "GPU-extra", temperatureCelsius: 77, clockEvents: {} };
    host.state.setGpu(extra, Date.now());
    const before = await (await fetch(`${e.url}/metrics`)).text();
    expect(sample(before, "gpu_temperature_celsius", { uuid: "GPU-extra" })).toBeUndefined();
    await e.tick();
    const asks: Record<string, string>[] = [{}, { accept: PROMETHEUS_ACCEPT }];
    for (const headers of asks) {
      const after = await (await fetch(`${e.url}/metrics`, { headers })).text();
      expect(sample(after, "gpu_temperature_celsius", { uuid: "GPU-extra" })).toBe(77);
    }
    host.state.setGpu({ ...extra, temperatureCelsius: 78 }, Date.now());
    await e.tick();
    const next = await (await fetch(`${e.url}/metrics`)).text();
    expect(sample(next, "gpu_temperature_celsius", { uuid: "GPU-extra" })).toBe(78);
  });

  it("does not render on a scrape; a tick renders each format asked for once", async () => {
    const metrics = host0(e).metrics;
    const variants: Record<string, string>[] = [
      {},
      { "accept-encoding": "gzip" },
      { accept: PROMETHEUS_ACCEPT },
      { accept: PROMETHEUS_ACCEPT, "accept-encoding": "gzip" },
    ];
    for (const headers of variants) await raw(`${e.url}/metrics`, headers); // all asked for once
    await e.tick();
    const rendered = metrics.renders;
    for (let i = 0; i < 5; i++) {
      for (const headers of variants) {
        expect((await raw(`${e.url}/metrics`, headers)).status).toBe(200);
      }
    }
    expect(metrics.renders).toBe(rendered);
    await e.tick();
    expect(metrics.renders).toBe(rendered + 2); // text and OpenMetrics, each gzipped from that
  });
});

describe("a format nobody asked for", () => {
  it("is not rendered at ticks, and is rendered once when first asked for", async () => {
    const e = await startExporter({
      listenAddress: "127.0.0.1:0",
      simulate: true,
      simulateHosts: 2,
      intervalMs: 600_000,
      logger: silentLogger,
    });
    try {
      const [h0, h1] = e.hosts.map((h) => h.metrics);
      if (!h0 || !h1) throw new Error("two hosts expected");
      await e.tick();
      await e.tick();
      expect([h0.renders, h1.renders]).toEqual([0, 0]);
      const text = await (await fetch(`${e.url}/hosts/1/metrics`)).text();
      expect(sample(text, "gpu_host_info")).toBe(1);
      expect([h0.renders, h1.renders]).toEqual([0, 1]);
      await fetch(`${e.url}/hosts/1/metrics`);
      expect(h1.renders).toBe(1);
    } finally {
      await e.close();
    }
  });
});

describe("a rendering that fails", () => {
  it("keeps serving the last good body instead of failing the scrape", async () => {
    const metrics = new HostMetrics({
      hostInfo: { hostname: "h" },
      compatDcgm: false,
      version: "1",
      log: silentLogger,
    });
    const state = new HostState({ staleAfterMs: 1e9, processTtlMs: 1e9, migTtlMs: 1e9 });
    state.setGpu({ index: 0, uuid: "GPU-0", temperatureCelsius: 40, clockEvents: {} }, 0);
    const good = await metrics.render(state.view(0));
    expect(sample(good, "gpu_temperature_celsius")).toBe(40);
    new Gauge({
      name: "broken",
      help: "throws while rendered",
      registers: [metrics.registry],
      collect() {
        throw new Error("boom");
      },
    });
    state.setGpu({ index: 0, uuid: "GPU-0", temperatureCelsius: 41, clockEvents: {} }, 0);
    await metrics.publish(state.view(0));
    expect((await metrics.exposition("text", false)).body.toString()).toBe(good);
  });
});
