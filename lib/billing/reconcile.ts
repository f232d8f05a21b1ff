import { pushTo } from "../core/group.ts";
import { HOUR_MS } from "../core/time.ts";
import { formatCents, roundToUnit } from "../core/money.ts";
import { monthBounds } from "../core/months.ts";
import type { Db } from "../db.ts";
import { actualsStatus, type ActualsStatus } from "./actuals.ts";
import { hostMatcher } from "./match.ts";
import { explainVariance, type BilledHourIn, type LedgerHourIn } from "./reasons.ts";
import {
  groupDtos,
  rowDtos,
  totalDto,
  type GroupDto,
  type MoneyDto,
  type ReconRowDto,
  type ReconRowIn,
} from "./reconcile-rows.ts";

// A month reconciled: the ledger's estimate of each host beside what the imported bills charged
// for it, the GPU instances billed that no host in gpufleet answers to, and the hosts that no bill
// mentions. The rows (hosts + unmonitored instances) add up to the imported bills' total.

export interface NotBilledHost {
  hostId: string;
  hostname: string;
  team: string;
  provider: string;
  region: string;
  instanceId: string | null;
  estimateMicros: string;
  estimate: string;
  why: string;
}

export interface Reconciliation {
  month: string;
  imports: {
    id: string;
    file: string;
    provider: string;
    format: string;
    rowsRead: number;
    rowsKept: number;
    importedBy: string;
    importedAt: string;
  }[];
  total: MoneyDto;
  hosts: ReconRowDto[];
  unmonitored: ReconRowDto[];
  notBilled: NotBilledHost[];
  largest: ReconRowDto[];
  byTeam: GroupDto[];
  byProvider: GroupDto[];
  byPricingModel: GroupDto[];
  /** how much of the month's ledger is on actuals (re-priced from the bills) */
  actuals: ActualsStatus;
}

export const UNMONITORED_TEAM = "(not monitored)";
const LARGEST = 10;

function notBilledWhy(
  h: { provider: string; instanceId: string | null },
  billedProviders: Set<string>,
): string {
  if (!billedProviders.has(h.provider)) {
    return h.provider === "onprem" || h.provider === "unknown"
      ? "on-prem: no cloud bill"
      : `no ${h.provider} bill imported for the month`;
  }
  if (!h.instanceId && h.provider !== "azure" && h.provider !== "gcp")
    return "no instance id reported (cloud metadata off?)";
  return "its instance id is on no imported bill (wrong id, or another account)";
}

export async function getReconciliation(db: Db, month: string): Promise<Reconciliation> {
  const { from, to } = monthBounds(month);
  const inMonth = { hourStart: { gte: from, lt: to } };
  const [imports, hosts, lineGroups, estimates, actuals] = await Promise.all([
    db.billingImport.findMany({ where: { period: month }, orderBy: { importedAt: "asc" } }),
    db.host.findMany({
      select: {
        id: true,
        hostname: true,
        provider: true,
        region: true,
        team: true,
        pricingModel: true,
        instanceType: true,
        instanceId: true,
      },
    }),
    db.billingLine.groupBy({
      by: [
        "provider",
        "account",
        "resourceId",
        "instanceKey",
        "instanceType",
        "region",
        "hourStart",
        "chargeCategory",
        "pricingModel",
      ],
      where: inMonth,
      _sum: { billedMicros: true, effectiveMicros: true },
    }),
    db.usageHour.groupBy({
      by: ["hostId"],
      where: { ...inMonth, gpuKey: "host" },
      _sum: { costMicros: true },
    }),
    actualsStatus(db, month),
  ]);
  const match = hostMatcher(hosts);
  const byHost = new Map<string, typeof lineGroups>();
  const unmatched = new Map<string, typeof lineGroups>();
  for (const g of lineGroups) {
    const host = match(g);
    const key = host ? host.id : `${g.provider}:${g.instanceKey || g.resourceId}`;
    const into = host ? byHost : unmatched;
    pushTo(into, key, g);
  }
  const ledger = await db.usageHour.findMany({
    where: { ...inMonth, gpuKey: "host", hostId: { in: [...byHost.keys()] } },
    select: {
      hostId: true,
      hourStart: true,
      costMicros: true,
      listCostMicros: true,
      upSeconds: true,
      priced: true,
    },
  });
  const ledgerByHost = new Map<string, LedgerHourIn[]>();
  for (const l of ledger) {
    const list = ledgerByHost.get(l.hostId) ?? [];
    list.push({
      hourStart: l.hourStart.getTime(),
      // the list estimate, also for an hour on actuals (its cost is then the bill's)
      costMicros: l.listCostMicros ?? l.costMicros,
      upSeconds: l.upSeconds,
      priced: l.priced,
    });
    ledgerByHost.set(l.hostId, list);
  }

  const rows: ReconRowIn[] = [];
  for (const h of hosts) {
    const groups = byHost.get(h.id);
    if (!groups) continue;
    const led = ledgerByHost.get(h.id) ?? [];
    const money = sums(groups);
    rows.push({
      kind: "host",
      key: h.id,
      name: h.hostname,
      team: h.team,
      provider: h.provider,
      pricingModel: h.pricingModel,
      instanceType: h.instanceType,
      region: h.region,
      account: groups[0]?.account ?? "",
      estimate: led.reduce((a, l) => a + l.costMicros, 0n),
      ...money,
      billedHours: new Set(groups.map((g) => g.hourStart.getTime())).size,
      ledgerHours: led.filter((l) => l.upSeconds > 0).length,
      reasons: explainVariance(led, billedHours(groups)),
    });
  }
  for (const [key, groups] of unmatched) {
    const first = groups[0];
    if (!first) continue;
    const money = sums(groups);
    rows.push({
      kind: "unmonitored",
      key,
      name: first.resourceId,
      team: UNMONITORED_TEAM,
      provider: first.provider,
      pricingModel: dominantModel(groups),
      instanceType: first.instanceType,
      region: first.region,
      account: first.account,
      estimate: 0n,
      ...money,
      billedHours: new Set(groups.map((g) => g.hourStart.getTime())).size,
      ledgerHours: 0,
      reasons: new Map(),
    });
  }
  const dtos = rowDtos(rows);
  const billedProviders = new Set(lineGroups.map((g) => g.provider));
  const estimateOf = new Map(estimates.map((e) => [e.hostId, e._sum.costMicros ?? 0n]));
  const notBilled = hosts
    .filter((h) => !byHost.has(h.id) && estimateOf.has(h.id))
    .map((h) => {
      const est = estimateOf.get(h.id) ?? 0n;
      return {
        hostId: h.id,
        hostname: h.hostname,
        team: h.team,
        provider: h.provider,
        region: h.region,
        instanceId: h.instanceId,
        estimateMicros: est.toString(),
        estimate: formatCents(roundToUnit(est)),
        why: notBilledWhy(h, billedProviders),
      };
    })
    .sort((a, b) => (a.hostname < b.hostname ? -1 : 1));
  const abs = (r: ReconRowDto) => {
    const v = BigInt(r.varianceMicros);
    return v < 0n ? -v : v;
  };
  return {
    month,
    imports: imports.map((i) => ({
      id: i.id,
      file: i.file,
      provider: i.provider,
      format: i.format,
      rowsRead: i.rowsRead,
      rowsKept: i.rowsKept,
      importedBy: i.importedBy,
      importedAt: i.importedAt.toISOString(),
    })),
    total: totalDto(rows),
    hosts: dtos.filter((r) => r.kind === "host"),
    unmonitored: dtos.filter((r) => r.kind === "unmonitored"),
    notBilled,
    largest: [...dtos]
      .sort((a, b) => (abs(a) === abs(b) ? 0 : abs(a) > abs(b) ? -1 : 1))
      .slice(0, LARGEST),
    byTeam: groupDtos(rows, (r) => r.team),
    byProvider: groupDtos(rows, (r) => r.provider),
    byPricingModel: groupDtos(rows, (r) => r.pricingModel),
    actuals,
  };
}

type LineGroup = {
  hourStart: Date;
  chargeCategory: string;
  pricingModel: string;
  _sum: { billedMicros: bigint | null; effectiveMicros: bigint | null };
};

function sums(groups: readonly LineGroup[]): { billed: bigint; effective: bigint } {
  let billed = 0n;
  let effective = 0n;
  for (const g of groups) {
    billed += g._sum.billedMicros ?? 0n;
    effective += g._sum.effectiveMicros ?? 0n;
  }
  return { billed, effective };
}

function billedHours(groups: readonly LineGroup[]): BilledHourIn[] {
  const hours = new Map<
    number,
    { usageEffective: bigint; creditEffective: bigint; hasUsage: boolean; models: Set<string> }
  >();
  for (const g of groups) {
    const t = g.hourStart.getTime() - (g.hourStart.getTime() % HOUR_MS);
    const h = hours.get(t) ?? {
      usageEffective: 0n,
      creditEffective: 0n,
      hasUsage: false,
      models: new Set<string>(),
    };
    const eff = g._sum.effectiveMicros ?? 0n;
    if (g.chargeCategory === "Usage") {
      h.usageEffective += eff;
      h.hasUsage = true;
      h.models.add(g.pricingModel);
    } else h.creditEffective += eff;
    hours.set(t, h);
  }
  return [...hours.entries()].map(([hourStart, h]) => ({ hourStart, ...h }));
}

function dominantModel(groups: readonly LineGroup[]): string {
  const by = new Map<string, bigint>();
  for (const g of groups)
    by.set(g.pricingModel, (by.get(g.pricingModel) ?? 0n) + (g._sum.effectiveMicros ?? 0n));
  return [...by.entries()].sort((a, b) => (a[1] > b[1] ? -1 : 1))[0]?.[0] ?? "on_demand";
}
