import { NextResponse } from "next/server";
import { db } from "@/lib/db.ts";
import { getMetricsSource } from "@/lib/metrics/index.ts";

export const dynamic = "force-dynamic";

/** Liveness and source health for load balancers, the e2e suite and the stale-data banner. */
export async function GET() {
  const source = getMetricsSource();
  const [health, hosts, tick] = await Promise.all([
    source.health(),
    db.host.count(),
    db.jobState.findUnique({ where: { name: "collector.lastTick" } }),
  ]);
  return NextResponse.json({
    status: "ok",
    mode: source.mode,
    hosts,
    source: health,
    collectorLastTick: tick?.value ?? null,
  });
}
