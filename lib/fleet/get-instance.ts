import "server-only";
import { parseLabels } from "../core/labels.ts";
import { inTeamScope } from "@/lib/auth/scope.ts";
import { monthBounds, monthOf } from "@/lib/core/months.ts";
import { getMetricsSource } from "@/lib/metrics/index.ts";
import type { ProcessInfo } from "@/lib/metrics/source.ts";
import type { InstanceDetail } from "@/lib/zod/schemas/instance.ts";
import { db as defaultDb } from "@/lib/db.ts";
import { NotFoundError } from "../core/errors.ts";
import { describeHolder, type Holder } from "../core/holders.ts";
import { idleNowPerHour, shapeInstanceGpus } from "./instance-detail.ts";
import { cachedFleet } from "./fleet-cache.ts";
import { loadFleetSnapshot, usesDefaults, type FleetDeps } from "./load-fleet-snapshot.ts";
import { toHostState } from "./summarize.ts";

/**
 * One instance: its GPUs now, MIG slices, processes, price and this month's cost. A host outside a
 * team-limited scope is not found, as if it did not exist.
 */
export async function getInstance(
  id: string,
  deps: FleetDeps,
  nameHolder: (h: Holder) => string = describeHolder,
): Promise<InstanceDetail> {
  const client = deps.client ?? defaultDb;
  const source = deps.source ?? getMetricsSource();
  const host = await client.host.findUnique({ where: { id } });
  if (!host || !inTeamScope(deps.scope, host.team)) {
    throw new NotFoundError(`instance ${id}`);
  }

  const cached = usesDefaults(deps) ? await cachedFleet() : null;
  const snapshot = cached
    ? { ...cached.view.snapshot, health: cached.health }
    : await loadFleetSnapshot({ ...deps, client, source });
  const month = monthOf(snapshot.now);
  const { from, to } = monthBounds(month);
  const [processes, ledger, unpriced] = await Promise.all([
    source.processes(id).catch((): ProcessInfo[] => []),
    client.usageHour.aggregate({
      where: { hostId: id, gpuKey: "host", priced: true, hourStart: { gte: from, lt: to } },
      _sum: { costMicros: true, idleCostMicros: true },
    }),
    client.usageHour.aggregate({
      where: { hostId: id, gpuKey: "host", priced: false, hourStart: { gte: from, lt: to } },
      _sum: { upSeconds: true },
    }),
  ]);
  const shaped = shapeInstanceGpus(id, snapshot.current, snapshot.grid, processes, nameHolder);
  const price = snapshot.prices.get(id) ?? null;

  return {
    generatedAt: snapshot.now.toISOString(),
    health: snapshot.health,
    host: {
      id: host.id,
      hostname: host.hostname,
      provider: host.provider,
      instanceType: host.instanceType,
      region: host.region,
      pricingModel: host.pricingModel,
      team: host.team,
      project: host.project,
      owner: host.owner,
      labels: parseLabels(host.labels),
      state: toHostState(host.state),
      lastSeen: host.lastSeen?.toISOString() ?? null,
      lastError: host.lastError,
      firstSeen: host.firstSeen.toISOString(),
    },
    ...shaped,
    cost: {
      month,
      currency: price?.currency ?? "USD",
      pricePerHourMicros: price ? price.perHourMicros.toString() : null,
      priceNote: price?.note ?? null,
      monthToDateMicros: (ledger._sum.costMicros ?? 0n).toString(),
      idleMonthToDateMicros: (ledger._sum.idleCostMicros ?? 0n).toString(),
      idleNowPerHourMicros: idleNowPerHour(shaped.gpus, price).toString(),
      unpricedHours: Math.round(((unpriced._sum.upSeconds ?? 0) / 3600) * 10) / 10,
    },
  };
}
