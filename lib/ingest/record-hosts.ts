import "server-only";
import type { Db } from "../db.ts";
import type { HostSnapshot } from "./snapshot.ts";
import { INTERRUPTED_STATE, INTERRUPTED_WHERE } from "./host-state.ts";

// The host and GPU inventory part of a recorded batch: the columns every host shares this tick
// go out as one updateMany per distinct value; a host's own columns (processes, attribution,
// hostname) and its GPU rows are written only where they differ from what is stored.

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

export interface InventoryRow {
  uuid: string;
  hostId: string;
  index: number;
  name: string;
  memoryTotalBytes: bigint;
  migMode: boolean;
  virtualizationMode?: string | null;
  vgpuLicensed?: boolean | null;
  parentUuid?: string;
  migProfile?: string;
  gpuInstanceId?: number;
}

export interface HostPlan {
  hostId: string;
  /** scrape error when the target was down */
  down?: string;
  up?: HostSnapshot;
  inventory: InventoryRow[];
  /** GPU uuids and MIG keys the scrape reported */
  seen: string[];
}

/** `in` lists and bulk inserts stay under SQLite's 999 bound parameters (Prisma's bound for it). */
export const IN_CHUNK = 500;

export function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
const SOURCE_FAILING = "exporter reports its GPU source failing";

/** The host columns a snapshot sets beside attribution: cloud facts and the reclaim notice. */
function hostFacts(snap: HostSnapshot): {
  zone?: string | null;
  instanceId?: string | null;
  interruptionPending: boolean;
  interruptionAt?: Date | null;
} {
  const n = snap.interruption;
  return {
    ...(snap.info ? { zone: snap.info.zone, instanceId: snap.info.instanceId } : {}),
    interruptionPending: n?.pending ?? false,
    // a notice's time is kept after it ends, for the record; a new notice replaces it
    ...(n?.pending ? { interruptionAt: n.at === null ? null : new Date(n.at) } : {}),
  };
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return a === b;
}

function attribution(snap: HostSnapshot): Record<string, string> {
  const info = snap.info;
  if (!info) return {};
  return {
    provider: info.provider,
    instanceType: info.instanceType,
    region: info.region,
    pricingModel: info.pricingModel,
    ...(info.team ? { team: info.team } : {}),
    ...(info.project ? { project: info.project } : {}),
    ...(info.owner ? { owner: info.owner } : {}),
    labels: JSON.stringify(info.labels),
  };
}

function groupBy<T>(items: readonly T[], key: (t: T) => string | null): Map<string | null, T[]> {
  const out = new Map<string | null, T[]>();
  for (const t of items) {
    const k = key(t);
    const list = out.get(k);
    if (list) list.push(t);
    else out.set(k, [t]);
  }
  return out;
}

async function writeHostColumns(tx: Tx, plans: readonly HostPlan[], now: Date) {
  for (const [lastError, group] of groupBy(
    plans.filter((p) => p.down !== undefined),
    (p) => p.down ?? "",
  )) {
    const ids = group.map((p) => p.hostId);
    await tx.host.updateMany({ where: { id: { in: ids } }, data: { state: "down", lastError } });
    await tx.host.updateMany({
      where: { id: { in: ids }, ...INTERRUPTED_WHERE },
      data: { state: INTERRUPTED_STATE },
    });
  }
  const up = plans.flatMap((p) => (p.up ? [{ id: p.hostId, snap: p.up }] : []));
  for (const [lastError, group] of groupBy(up, (u) => (u.snap.sourceOk ? null : SOURCE_FAILING))) {
    await tx.host.updateMany({
      where: { id: { in: group.map((u) => u.id) } },
      data: { state: "up", lastSeen: now, lastError },
    });
  }
  if (up.length === 0) return;
  const names = [
    ...new Set(up.flatMap((u) => (u.snap.info?.hostname ? [u.snap.info.hostname] : []))),
  ];
  const [stored, holders] = await Promise.all([
    tx.host.findMany({ where: { id: { in: up.map((u) => u.id) } } }),
    names.length > 0
      ? tx.host.findMany({
          where: { hostname: { in: names } },
          select: { id: true, hostname: true },
        })
      : [],
  ]);
  const byId = new Map(stored.map((h) => [h.id, h]));
  // hostname → host id, kept current as this batch renames hosts, in order, as one by one would
  const owner = new Map<string, string>();
  for (const h of [...stored, ...holders]) owner.set(h.hostname, h.id);
  for (const { id, snap } of up) {
    const cur = byId.get(id);
    if (!cur) continue;
    const name = snap.info?.hostname;
    const taken = name ? owner.get(name) : undefined;
    const rename = name && (taken === undefined || taken === id) ? name : undefined;
    const data: Record<string, string | boolean | Date | null> = {
      processes: JSON.stringify(snap.processes),
      ...attribution(snap),
      ...hostFacts(snap),
      ...(rename ? { hostname: rename } : {}),
    };
    const stale = Object.entries(data).some(
      ([k, v]) => !sameValue((cur as unknown as Record<string, unknown>)[k], v),
    );
    if (!stale) continue;
    await tx.host.update({ where: { id }, data });
    if (rename && cur.hostname !== rename) {
      owner.delete(cur.hostname);
      owner.set(rename, id);
      cur.hostname = rename;
    }
  }
}

const sameGpu = (row: InventoryRow, cur: Record<string, unknown>) =>
  row.hostId === cur.hostId &&
  row.index === cur.index &&
  row.name === cur.name &&
  row.memoryTotalBytes === cur.memoryTotalBytes &&
  row.migMode === cur.migMode &&
  (row.parentUuid ?? null) === cur.parentUuid &&
  (row.migProfile ?? null) === cur.migProfile &&
  (row.gpuInstanceId ?? null) === cur.gpuInstanceId &&
  (row.virtualizationMode === undefined || row.virtualizationMode === cur.virtualizationMode) &&
  (row.vgpuLicensed === undefined || row.vgpuLicensed === cur.vgpuLicensed);

/** GPU rows not yet known to belong to their host: created, or updated where they differ. */
async function writeInventory(tx: Tx, rows: readonly InventoryRow[], now: Date) {
  const stored = new Map<string, Record<string, unknown>>();
  for (const part of chunked(rows, IN_CHUNK)) {
    const found = await tx.gpu.findMany({ where: { uuid: { in: part.map((r) => r.uuid) } } });
    for (const g of found) stored.set(g.uuid, g);
  }
  const fresh: InventoryRow[] = [];
  for (const row of rows) {
    const cur = stored.get(row.uuid);
    if (!cur) fresh.push(row);
    else if (!sameGpu(row, cur)) {
      const { uuid, ...data } = row;
      await tx.gpu.update({ where: { uuid }, data: { ...data, lastSeen: now } });
    }
  }
  if (fresh.length > 0) {
    await tx.gpu.createMany({ data: fresh.map((r) => ({ ...r, lastSeen: now })) });
  }
}

export async function writeHosts(tx: Tx, plans: readonly HostPlan[], now: Date): Promise<void> {
  await writeHostColumns(tx, plans, now);
  const rows = plans.flatMap((p) => p.inventory);
  if (rows.length > 0) await writeInventory(tx, rows, now);
  // every GPU a scrape reported was seen now (unchanged inventory rows get only this)
  for (const part of chunked(
    plans.flatMap((p) => p.seen),
    IN_CHUNK,
  )) {
    await tx.gpu.updateMany({ where: { uuid: { in: part } }, data: { lastSeen: now } });
  }
}
