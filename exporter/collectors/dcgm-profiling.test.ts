import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../log.ts";
import { startExporter } from "../server.ts";
import { HAVE_PROMTOOL, promtool, sample, shared, waitFor } from "../test/helpers.ts";

// A stand-in dcgm-exporter on 127.0.0.1 serving a real scrape with profiling fields.
let server: Server;
let url = "";
const body = shared("dcgm-exporter-prof-tesla-t4-590-eccd.prom");

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  url = `http://127.0.0.1:${addr && typeof addr === "object" ? addr.port : 0}/metrics`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("DCGM source: profiling fields end to end", () => {
  it.each([false, true])(
    "serves the real T4 capture's efficiency metrics (compat=dcgm: %s)",
    async (compat) => {
      const e = await startExporter({
        listenAddress: "127.0.0.1:0",
        dcgmUrl: url,
        intervalMs: 100,
        logger: silentLogger,
        ...(compat ? { compat: "dcgm" as const } : {}),
      });
      try {
        const text = await waitFor(async () => {
          const t = await (await fetch(`${e.url}/metrics`)).text();
          return sample(t, "gpu_info") !== undefined ? t : undefined;
        }, "GPU series");
        const g = { gpu: "0", uuid: "GPU-6d5c0ac5-74d7-3130-46f1-e93ed57f469a" };
        expect(sample(text, "gpu_utilization_ratio", g)).toBe(0.91);
        expect(sample(text, "gpu_graphics_engine_active_ratio", g)).toBe(0.156205);
        expect(sample(text, "gpu_tensor_active_ratio", g)).toBe(0.005822);
        expect(sample(text, "gpu_dram_active_ratio", g)).toBe(0.092781);
        expect(sample(text, "gpu_pcie_tx_bytes_per_second", g)).toBe(4791810);
        expect(sample(text, "gpu_pcie_rx_bytes_per_second", g)).toBe(6935930);
        // not in this scrape: no series at all
        expect(text).not.toContain("gpu_sm_active_ratio");
        expect(text).not.toContain("gpu_nvlink_tx_bytes_per_second");
        const dcgm = { UUID: g.uuid, modelName: "Tesla T4", pci_bus_id: "00000000:37:00.0" };
        if (compat) {
          expect(sample(text, "DCGM_FI_PROF_GR_ENGINE_ACTIVE", dcgm)).toBe(0.156205);
          expect(sample(text, "DCGM_FI_PROF_PCIE_RX_BYTES", dcgm)).toBe(6935930);
          expect(text).not.toContain("DCGM_FI_PROF_SM_ACTIVE");
        } else {
          expect(text).not.toContain("DCGM_FI_PROF_");
          if (HAVE_PROMTOOL) expect(promtool(text)).toEqual({ status: 0, problems: [] });
        }
      } finally {
        await e.close();
      }
    },
  );
});
