import "server-only";
import type { TeamScope } from "../auth/scope.ts";
import { listBenchmarks } from "../benchmarks/manage.ts";
import { monthBounds } from "../core/months.ts";
import { db as defaultDb, type Db } from "../db.ts";
import { loadPriceRows } from "../pricing/catalogue-db.ts";
import { ledgerScopeWhere } from "../spend/scope-where.ts";
import { buildCompare } from "./build.ts";
import { specKeyOf } from "./gpu-specs.ts";
import type { ModelUsage } from "./reprice.ts";
import type { CompareResult } from "./schema.ts";

/**
 * The month's GPU-hours and actual cost per GPU model, from the ledger, for the hosts in `scope`.
 * GPU-hours count whole GPUs (MIG slices, uuid "<gpu>:gi<n>", would count a GPU twice); the cost
 * counts every non-host row, slices included (they sum to the host row), at the host's GPU model.
 */
export async function monthUsageByModel(
  client: Db,
  month: string,
  scope: TeamScope,
): Promise<ModelUsage[]> {
  const { from, to } = monthBounds(month);
  const inMonth = { hourStart: { gte: from, lt: to }, ...ledgerScopeWhere(scope) };
  const [gpus, slices] = await Promise.all([
    client.usageHour.groupBy({
      by: ["hostId", "gpuModel", "priced"],
      where: { ...inMonth, gpuKey: { not: "host" }, NOT: { gpuKey: { contains: ":gi" } } },
      _sum: { upSeconds: true, costMicros: true },
    }),
    client.usageHour.groupBy({
      by: ["hostId", "priced"],
      where: { ...inMonth, gpuKey: { contains: ":gi" } },
      _sum: { costMicros: true },
    }),
  ]);
  const usage = new Map<string, ModelUsage>();
  const hostModel = new Map<string, string>();
  const at = (model: string) => {
    let u = usage.get(model);
    if (!u) usage.set(model, (u = { model, gpuSeconds: 0, pricedGpuSeconds: 0, actualMicros: 0n }));
    return u;
  };
  for (const g of [...gpus].sort((a, b) => (a.gpuModel ?? "").localeCompare(b.gpuModel ?? ""))) {
    const model = specKeyOf(g.gpuModel) ?? g.gpuModel ?? "unknown GPU";
    if (!hostModel.has(g.hostId)) hostModel.set(g.hostId, model);
    const u = at(model);
    const seconds = g._sum.upSeconds ?? 0;
    u.gpuSeconds += seconds;
    if (g.priced) {
      u.pricedGpuSeconds += seconds;
      u.actualMicros += g._sum.costMicros ?? 0n;
    }
  }
  for (const s of slices) {
    if (!s.priced) continue;
    at(hostModel.get(s.hostId) ?? "unknown GPU").actualMicros += s._sum.costMicros ?? 0n;
  }
  return [...usage.values()];
}

export async function getCompare(
  month: string,
  { client = defaultDb, now = new Date(), scope }: { client?: Db; now?: Date; scope: TeamScope },
): Promise<CompareResult> {
  const [priceRows, usage] = await Promise.all([
    loadPriceRows(client),
    monthUsageByModel(client, month, scope),
  ]);
  const benchmarks = await listBenchmarks({ client, now, priceRows });
  return buildCompare({ month, now, priceRows, benchmarks, usage, teamLimited: scope !== null });
}
