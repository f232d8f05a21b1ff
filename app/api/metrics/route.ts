import { appMetrics } from "@/lib/app-metrics.ts";
import { handle, noQuery, parseQuery } from "../_lib/handle.ts";

/** Prometheus text format; scrape it with an API token (see README, "Monitoring gpufleet"). */
export const GET = handle("metrics:read", async (req: Request) => {
  parseQuery(noQuery, req.url);
  const registry = appMetrics();
  return new Response(await registry.metrics(), {
    headers: { "content-type": registry.contentType, "cache-control": "no-store" },
  });
});
