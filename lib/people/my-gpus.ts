import "server-only";
import { db as defaultDb, type Db } from "@/lib/db.ts";
import { describeHolder, type Holder } from "@/lib/core/holders.ts";
import { divRoundHalfUp } from "@/lib/core/money.ts";
import { monthBounds, monthOf } from "@/lib/core/months.ts";
import { HOUR_MS } from "@/lib/core/time.ts";
import { IDLE_UTIL, SM_ACTIVE_IDLE } from "@/lib/core/idle.ts";
import type { MetricsSource, ProcessInfo } from "@/lib/metrics/source.ts";
import { loadPriceRows } from "@/lib/pricing/catalogue-db.ts";
import { lookupPrice } from "@/lib/pricing/lookup.ts";
import type { PersonKind } from "@/lib/zod/schemas/person.ts";
import type { MyGpus } from "@/lib/zod/schemas/my-gpus.ts";
import { keysForEmail } from "./directory.ts";

// "My GPUs" (issue 24): the GPUs whose processes the signed-in person holds now (matched by the
// people directory: their user name, pod namespace or Slurm account), busy or idle, held since
// when (the ledger's hours), at what share of the host's price, this month's cost of what they
// held, and the open alerts about those GPUs. Only the person's own holdings: no team scope.

type Key = { kind: PersonKind; key: string };

export function holdsAs(h: Holder, keys: readonly Key[]): boolean {
  return keys.some(
    (k) =>
      (k.kind === "user" && h.user === k.key) ||
      (k.kind === "namespace" && h.namespace === k.key) ||
      (k.kind === "account" && h.account === k.key),
  );
}

/** The start of the unbroken run of ledger hours, ending at the newest, in `hours` (sorted desc). */
function runStart(hours: readonly Date[]): Date | null {
  let start: Date | null = null;
  for (const h of hours) {
    if (start && start.getTime() - h.getTime() !== HOUR_MS) break;
    start = h;
  }
  return start;
}

export async function myGpus(
  email: string,
  deps: { client?: Db; source: MetricsSource; now?: Date },
): Promise<MyGpus> {
  const client = deps.client ?? defaultDb;
  const now = deps.now ?? new Date();
  const keys = await keysForEmail(email, client);
  const empty: MyGpus = {
    mapped: keys.length > 0,
    as: keys.map((k) => `${k.kind} ${k.key}`),
    gpus: [],
    monthMicros: "0",
    monthIdleMicros: "0",
    currency: "USD",
    alerts: [],
  };
  if (keys.length === 0) return empty;
  const hosts = await client.host.findMany({ where: { state: "up" } });
  const procs = await Promise.all(
    hosts.map((h) => deps.source.processes(h.id).catch((): ProcessInfo[] => [])),
  );
  const mine = new Map<string, { hostId: string; holders: Set<string> }>();
  hosts.forEach((h, i) => {
    for (const p of procs[i] ?? []) {
      if (!p.holder || !holdsAs(p.holder, keys)) continue;
      const g = mine.get(p.gpuUuid) ?? { hostId: h.id, holders: new Set<string>() };
      g.holders.add(`${describeHolder(p.holder)} (pid ${p.pid})`);
      mine.set(p.gpuUuid, g);
    }
  });
  const users = keys.filter((k) => k.kind === "user").map((k) => k.key);
  const namespaces = keys.filter((k) => k.kind === "namespace").map((k) => k.key);
  const accounts = keys.filter((k) => k.kind === "account").map((k) => k.key);
  const whoWhere = {
    OR: [{ user: { in: users } }, { namespace: { in: namespaces } }, { account: { in: accounts } }],
  };
  const { from, to } = monthBounds(monthOf(now));
  const uuids = [...mine.keys()];
  const [current, prices, month, hours, alerts, gpuCounts] = await Promise.all([
    deps.source.currentGpus(),
    loadPriceRows(client),
    client.usageHourHolder.aggregate({
      where: { ...whoWhere, hourStart: { gte: from, lt: to } },
      _sum: { costMicros: true, idleCostMicros: true },
    }),
    client.usageHourHolder.findMany({
      where: {
        ...whoWhere,
        gpuKey: { in: uuids },
        hourStart: { gte: new Date(now.getTime() - 7 * 24 * HOUR_MS) },
      },
      select: { gpuKey: true, hourStart: true },
      orderBy: { hourStart: "desc" },
    }),
    client.alert.findMany({
      where: { gpuUuid: { in: uuids }, state: { in: ["firing", "acknowledged"] } },
      orderBy: { startsAt: "desc" },
      select: { id: true, summary: true, state: true, startsAt: true },
    }),
    client.gpu.groupBy({ by: ["hostId"], where: { parentUuid: null }, _count: { _all: true } }),
  ]);
  const byUuid = new Map(current.map((g) => [g.uuid, g]));
  const hostById = new Map(hosts.map((h) => [h.id, h]));
  const gpusOn = new Map(gpuCounts.map((g) => [g.hostId, g._count._all]));
  const gpus = uuids.map((uuid) => {
    const held = mine.get(uuid);
    const host = hostById.get(held?.hostId ?? "");
    const g = byUuid.get(uuid);
    const price = host ? lookupPrice(prices, { ...host, at: now }) : null;
    const n = Math.max(1, gpusOn.get(host?.id ?? "") ?? (price?.priced ? price.gpuCount : 1));
    const idle =
      g?.util != null &&
      (g.util < IDLE_UTIL || (g.smActive != null && g.smActive < SM_ACTIVE_IDLE));
    const since = runStart(hours.filter((h) => h.gpuKey === uuid).map((h) => h.hourStart));
    return {
      hostId: host?.id ?? "",
      hostname: host?.hostname ?? "",
      uuid,
      index: g?.index ?? 0,
      name: g?.name ?? "GPU",
      state: !g?.reporting
        ? ("not_reporting" as const)
        : idle
          ? ("idle" as const)
          : ("busy" as const),
      util: g?.util ?? null,
      holders: [...(held?.holders ?? [])].sort(),
      heldSince: since?.toISOString() ?? null,
      perHourMicros: price?.priced
        ? divRoundHalfUp(price.usdPerHourMicros, BigInt(n)).toString()
        : null,
    };
  });
  gpus.sort((a, b) => a.hostname.localeCompare(b.hostname) || a.index - b.index);
  return {
    ...empty,
    gpus,
    monthMicros: (month._sum.costMicros ?? 0n).toString(),
    monthIdleMicros: (month._sum.idleCostMicros ?? 0n).toString(),
    alerts: alerts.map((a) => ({ ...a, startsAt: a.startsAt.toISOString() })),
  };
}
