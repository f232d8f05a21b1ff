import "server-only";
import { NotFoundError } from "@/lib/core/errors.ts";
import type { TeamScope } from "@/lib/auth/scope.ts";
import { db as defaultDb, type Db } from "@/lib/db.ts";
import type { MetricsSource } from "@/lib/metrics/source.ts";
import { byTypeAndModel, unitCosts, type HostMeta, type UnitCostRow } from "./unit-cost-math.ts";
import type { TypeModelRow } from "./unit-cost-math.ts";

export interface UnitCostWindow {
  from: Date;
  to: Date;
  /** split a mixed host's cost by each model's share of the work (the user's choice) */
  split: boolean;
  /** only these hosts (an instance page, a trial); all hosts in scope when absent */
  hostIds?: readonly string[];
}

export interface UnitCosts {
  hosts: UnitCostRow[];
  byType: TypeModelRow[];
}

/** "2× L4": the host's physical GPUs by model. */
function gpuSummary(gpus: readonly { name: string }[]): string | null {
  if (gpus.length === 0) return null;
  const counts = new Map<string, number>();
  for (const g of gpus) counts.set(g.name, (counts.get(g.name) ?? 0) + 1);
  return [...counts].map(([name, n]) => `${n}× ${name.replace(/^NVIDIA /, "")}`).join(", ");
}

/** The hosts in scope with their GPUs, for the unit-cost math. */
export async function hostMetas(
  client: Db,
  scope: TeamScope,
  hostIds?: readonly string[],
): Promise<HostMeta[]> {
  const hosts = await client.host.findMany({
    where: {
      ...(scope === null ? {} : { team: { in: [...scope] } }),
      ...(hostIds ? { id: { in: [...hostIds] } } : {}),
    },
    select: {
      id: true,
      hostname: true,
      provider: true,
      instanceType: true,
      team: true,
      gpus: { where: { parentUuid: null }, select: { name: true } },
    },
  });
  return hosts.map((h) => ({ ...h, gpus: gpuSummary(h.gpus) }));
}

/**
 * Measured cost per unit of work over [from, to) for the hosts in `scope`: the work the metrics
 * source counted (either mode) against the ledger's host-hours of the same hosts.
 */
export async function getUnitCosts(
  window: UnitCostWindow,
  { client = defaultDb, metrics, scope }: { client?: Db; metrics: MetricsSource; scope: TeamScope },
): Promise<UnitCosts> {
  const hosts = await hostMetas(client, scope, window.hostIds);
  if (window.hostIds && hosts.length === 0) throw new NotFoundError("host");
  const ids = new Set(hosts.map((h) => h.id));
  const work = (await metrics.workHours(window.from, window.to)).filter((w) => ids.has(w.hostId));
  const counted = [...new Set(work.map((w) => w.hostId))];
  const ledger =
    counted.length === 0
      ? []
      : await client.usageHour.findMany({
          where: {
            gpuKey: "host",
            hostId: { in: counted },
            hourStart: { gte: window.from, lt: window.to },
          },
          select: { hostId: true, hourStart: true, costMicros: true, priced: true },
        });
  const rows = unitCosts({
    hosts,
    ledger: ledger.map((l) => ({ ...l, hourStart: l.hourStart.getTime() })),
    work: work.map((w) => ({ ...w, hourStart: w.hourStart.getTime() })),
    split: window.split,
  });
  return { hosts: rows, byType: byTypeAndModel(rows) };
}
