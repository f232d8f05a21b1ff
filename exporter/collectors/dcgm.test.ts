import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../log.ts";
import { startExporter } from "../server.ts";
import {
  HAVE_PROMTOOL,
  HAVE_SHARED,
  own,
  promtool,
  sample,
  shared,
  waitFor,
} from "../test/helpers.ts";

// A stand-in dcgm-exporter on 127.0.0.1 whose answer the test can change.
let body = "";
let status = 200;
let server: Server;
let url = "";

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(status, { "content-type": "text/plain" });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  url = `http://127.0.0.1:${addr && typeof addr === "object" ? addr.port : 0}/metrics`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("DCGM source", () => {
  it("maps a dcgm-exporter's series, then reports failure when it goes away", async () => {
    body = own("dcgm-exporter-new-labels.prom");
    status = 200;
    const e = await startExporter({
      listenAddress: "127.0.0.1:0",
      dcgmUrl: url,
      intervalMs: 100,
      logger: silentLogger,
    });
    try {
      const text = await waitFor(async () => {
        const t = await (await fetch(`${e.url}/metrics`)).text();
        return sample(t, "gpu_exporter_collector_success", { collector: "dcgm" }) === 1
          ? t
          : undefined;
      }, "dcgm success");
      const g0 = { gpu: "0", uuid: "GPU-11111111-2222-3333-4444-555555555555" };
      expect(sample(text, "gpu_utilization_ratio", g0)).toBe(0.87);
      expect(sample(text, "gpu_memory_total_bytes", g0)).toBe(40000 * 1024 ** 2);
      expect(
        sample(text, "gpu_mig_memory_used_bytes", { gpu_instance_id: "1", mig_profile: "3g.20gb" }),
      ).toBe(10240 * 1024 ** 2);
      expect(sample(text, "gpu_processes")).toBeUndefined(); // DCGM does not say: absent, not 0
      if (HAVE_PROMTOOL) expect(promtool(text)).toEqual({ status: 0, problems: [] });

      status = 503;
      await waitFor(async () => {
        const t = await (await fetch(`${e.url}/metrics`)).text();
        return (
          sample(t, "gpu_exporter_collector_success", { collector: "dcgm" }) === 0 &&
          sample(t, "gpu_info") === undefined
        );
      }, "dcgm failure and stale series dropped");
    } finally {
      await e.close();
    }
  });

  it.skipIf(!HAVE_SHARED)(
    "serves the real capture through the contract, promtool-clean",
    async () => {
      body = shared("dcgm-exporter-metrics-tesla-t4-datadog-fixture.prom");
      status = 200;
      const e = await startExporter({
        listenAddress: "127.0.0.1:0",
        dcgmUrl: url,
        intervalMs: 100,
        logger: silentLogger,
      });
      try {
        const text = await waitFor(async () => {
          const t = await (await fetch(`${e.url}/metrics`)).text();
          return sample(t, "gpu_info") !== undefined ? t : undefined;
        }, "GPU series");
        expect(
          sample(text, "gpu_power_draw_watts", {
            uuid: "GPU-20c56d28-0da5-6d26-a36a-e7af1ce2586e",
          }),
        ).toBe(8.969);
        expect(sample(text, "gpu_info", { name: "Tesla T4", driver_version: "470.182.03" })).toBe(
          1,
        );
        if (HAVE_PROMTOOL) expect(promtool(text)).toEqual({ status: 0, problems: [] });
      } finally {
        await e.close();
      }
    },
  );
});
