import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExporter, type RunningExporter } from "../../exporter/server.ts";
import { buildFleet } from "../../exporter/sim/fleet.ts";
import { BUSY_UTIL, INEFFICIENT_SM_ACTIVE } from "../recommendations/rule-inefficient.ts";
import { scrapeOne } from "./scrape.ts";

// The demo fleet's stuck-loop GPUs, scraped from the simulator as the embedded collector does:
// ~100 % utilization with SM active near 0, which the app counts as idle by SM active and as
// busy but inefficient. The demo's spot hosts are read too: the simulator serves no reclaim
// notice (it has no such profile), so the snapshot carries none.

const fleet = buildFleet({ seed: 42, hosts: 24 });
let exporter: RunningExporter;
beforeAll(async () => {
  exporter = await startExporter({
    simulate: true,
    simulateHosts: 24,
    simulateSeed: 42,
    listenAddress: "127.0.0.1:0",
    intervalMs: 200,
    logLevel: "error",
  });
});
afterAll(async () => exporter.close());

describe("demo stuck-loop GPUs through ingest", () => {
  it("read busy by utilization and near zero by SM active", async () => {
    const host = fleet.hosts.find((h) => String(h.id) === "22");
    if (!host) throw new Error("demo host 22 expected");
    const r = await scrapeOne(`${exporter.url}/hosts/${host.id}/metrics`, 5000);
    if (!r.ok) throw new Error(r.error);
    expect(r.snapshot.gpus).toHaveLength(8);
    for (const g of r.snapshot.gpus) {
      expect(g.util).toBeGreaterThan(BUSY_UTIL);
      expect(g.smActive).toBeLessThan(INEFFICIENT_SM_ACTIVE);
    }
    expect(r.snapshot.info?.pricingModel).toBe("spot");
    expect(r.snapshot.interruption).toBeNull();
  });
});
