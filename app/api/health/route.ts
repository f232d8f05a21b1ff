import { authenticate } from "@/lib/auth/actor.ts";
import { env } from "@/lib/env.ts";
import { storeStatus } from "@/lib/fleet/store-status.ts";
import { getMetricsSource } from "@/lib/metrics/index.ts";
import type { SourceHealth } from "@/lib/metrics/source.ts";
import { handlePublic, json } from "../_lib/handle.ts";

export const dynamic = "force-dynamic";

async function sourceHealth(): Promise<{ mode: "embedded" | "prometheus"; health: SourceHealth }> {
  try {
    const source = getMetricsSource();
    return { mode: source.mode, health: await source.health() };
  } catch (e) {
    // a password, token or CA file that cannot be read; the message names the variable and path
    return {
      mode: env.PROMETHEUS_URL ? "prometheus" : "embedded",
      health: { ok: false, lastSuccess: null, error: (e as Error).message },
    };
  }
}

/**
 * Liveness and source health for load balancers, `npm start`, the e2e suite and monitoring.
 * Anyone gets `{"status": "ok" | "degraded"}`; "degraded" when the metrics source is unreachable,
 * refuses the app's credentials or has no fresh data. Signed in (any role or token), the answer
 * adds the mode, the source's health and error, the host count and the collector's last tick;
 * signed out it says nothing more, since those name hosts, addresses and errors.
 *
 * Degraded is still HTTP 200, on purpose: every replica reads the same Prometheus (or store), so
 * a 503 would make a load balancer drop all of them at once, and an orchestrator (the Dockerfile's
 * HEALTHCHECK, a liveness probe) restart them, which cannot mend the source. Pages from the
 * database (costs, budgets, alerts, settings, sign-in) keep working and the dashboard says what is
 * wrong, so the app stays in rotation. Monitoring should alert on the body's "status".
 */
export const GET = handlePublic(async (req: Request) => {
  const [{ mode, health }, actor] = await Promise.all([
    sourceHealth(),
    // an unreadable session (store down) is answered as signed out, never with its error
    authenticate(req.headers).catch(() => null),
  ]);
  const status = health.ok ? "ok" : "degraded";
  if (!actor) return json({ status });
  const { hosts, collectorLastTick } = await storeStatus();
  return json({ status, mode, hosts, source: health, collectorLastTick });
});
