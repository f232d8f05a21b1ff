import "server-only";
import type { Db } from "../db.ts";
import type { PromClient } from "../metrics/prometheus/api.ts";
import { promNumber } from "../metrics/prometheus/api.ts";
import { chunked, IN_CHUNK } from "./record-hosts.ts";
import { INTERRUPTED_STATE, INTERRUPTED_WHERE } from "./host-state.ts";
import { interruptionFrom, type Interruption } from "./snapshot.ts";
import { yieldToLoop } from "../core/yield-to-loop.ts";
import { queryInventory, type PromInventory } from "../metrics/prometheus/inventory.ts";

// In prometheus mode the app scrapes nothing: hosts and GPUs are learnt from gpu_host_info and
// gpu_info, and a host is up when Prometheus's own `up` for its instance is 1.
//
// Every collection interval this runs over the whole fleet, so it writes only what changed: one
// read of the stored rows, a create or update for a new or changed host or GPU, and one
// updateMany per chunk of hosts for state and lastSeen. At 10,000 GPUs an upsert per row took
// tens of seconds of SQLite work per tick. SQLite answers synchronously, so a chain of awaited
// queries never lets the event loop run: it yields between chunks, so requests are served while
// discovery runs.

const ATTR = new Set([
  "__name__",
  "instance",
  "job",
  "hostname",
  "provider",
  "instance_type",
  "region",
  "pricing_model",
  "team",
  "project",
  "owner",
  "zone",
  "instance_id",
]);

const DOWN = "Prometheus reports the target down";

type HostAttrs = {
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  team?: string;
  project?: string;
  owner?: string;
  labels: string;
  zone: string | null;
  instanceId: string | null;
  interruptionPending?: boolean;
  interruptionAt?: Date | null;
};

type GpuAttrs = {
  hostId: string;
  index: number;
  name: string;
  migMode: boolean;
  virtualizationMode: string | null;
  vgpuLicensed?: boolean;
};

/** `notice` undefined: leave the stored notice (a down target's series have gone stale). */
function hostAttrs(m: Record<string, string>, notice: Interruption | null | undefined): HostAttrs {
  const labels = Object.fromEntries(Object.entries(m).filter(([k]) => !ATTR.has(k)));
  return {
    provider: m.provider || "unknown",
    instanceType: m.instance_type || "unknown",
    region: m.region || "unknown",
    pricingModel: m.pricing_model || "on_demand",
    // absent team/project/owner labels leave what the store has (set in the app, say)
    ...(m.team ? { team: m.team } : {}),
    ...(m.project ? { project: m.project } : {}),
    ...(m.owner ? { owner: m.owner } : {}),
    labels: JSON.stringify(labels),
    zone: m.zone || null,
    instanceId: m.instance_id || null,
    ...(notice !== undefined ? { interruptionPending: notice?.pending ?? false } : {}),
    // the announced time stays after the notice ends; a new notice replaces it
    ...(notice?.pending ? { interruptionAt: notice.at === null ? null : new Date(notice.at) } : {}),
  };
}

/** Whether any of `want`'s values differs from `cur`'s. */
function differs(want: object, cur: object): boolean {
  const c = cur as Record<string, unknown>;
  return Object.entries(want).some(([k, v]) => {
    const have = c[k];
    if (v instanceof Date && have instanceof Date) return v.getTime() !== have.getTime();
    return have !== v;
  });
}

/** Each instance's reclaim notice from the two interruption series. */
function noticesByInstance(inv: PromInventory): Map<string, Interruption | null> {
  const times = new Map(
    inv.interruptionTime.map((s) => [s.metric.instance ?? "", promNumber(s.value[1])]),
  );
  return new Map(
    inv.interruptionPending.map((s) => {
      const i = s.metric.instance ?? "";
      return [i, interruptionFrom(promNumber(s.value[1]), times.get(i) ?? null)];
    }),
  );
}

async function findIn<T>(
  keys: readonly string[],
  find: (part: string[]) => Promise<T[]>,
): Promise<T[]> {
  const out: T[] = [];
  for (const part of chunked(keys, IN_CHUNK)) {
    out.push(...(await find(part)));
    await yieldToLoop();
  }
  return out;
}

async function updateIds(ids: readonly string[], update: (part: string[]) => Promise<unknown>) {
  for (const part of chunked(ids, IN_CHUNK)) {
    await update(part);
    await yieldToLoop();
  }
}

/** Stored GPUs seen this tick at most this many at a time; more than this, by uuid. */
const NOT_IN_MAX = 200;

export async function discoverFromPrometheus(
  db: Db,
  client: PromClient,
  now = new Date(),
): Promise<number> {
  const inv = await queryInventory(client);
  const { hostInfos: infos, ups, gpuInfos: gpus, memTotals: totals } = inv;
  const notices = noticesByInstance(inv);
  const licensed = new Map(
    inv.vgpuLicensed.map((s) => [s.metric.uuid ?? "", promNumber(s.value[1]) === 1]),
  );
  const upBy = new Map(ups.map((s) => [s.metric.instance ?? "", s.value[1] === "1"]));

  // hosts, by hostname (when two series name one hostname, the later one wins)
  const wantHosts = new Map<string, { attrs: HostAttrs; up: boolean }>();
  const hostnameByInstance = new Map<string, string>();
  for (const s of infos) {
    const m = s.metric;
    if (!m.hostname) continue;
    const up = upBy.get(m.instance ?? "") ?? false;
    const notice = notices.get(m.instance ?? "") ?? (up ? null : undefined);
    wantHosts.set(m.hostname, { attrs: hostAttrs(m, notice), up });
    hostnameByInstance.set(m.instance ?? "", m.hostname);
  }
  const names = [...wantHosts.keys()];
  const stored = new Map(
    (await findIn(names, (part) => db.host.findMany({ where: { hostname: { in: part } } }))).map(
      (h) => [h.hostname, h],
    ),
  );
  const fresh = names.filter((n) => !stored.has(n));
  if (fresh.length > 0) {
    await db.host.createMany({
      data: fresh.map((hostname) => {
        const w = wantHosts.get(hostname);
        return { hostname, origin: "prometheus", ...w?.attrs, state: w?.up ? "up" : "down" };
      }),
    });
    const made = await findIn(fresh, (part) =>
      db.host.findMany({ where: { hostname: { in: part } } }),
    );
    for (const h of made) stored.set(h.hostname, h);
  }
  const upIds: string[] = [];
  const downIds: string[] = [];
  const idByHostname = new Map<string, string>();
  for (const [hostname, w] of wantHosts) {
    const cur = stored.get(hostname);
    if (!cur) continue;
    idByHostname.set(hostname, cur.id);
    (w.up ? upIds : downIds).push(cur.id);
    if (differs(w.attrs, cur)) {
      await db.host.update({ where: { id: cur.id }, data: w.attrs });
      await yieldToLoop();
    }
  }
  await updateIds(upIds, (part) =>
    db.host.updateMany({
      where: { id: { in: part } },
      data: { state: "up", lastSeen: now, lastError: null },
    }),
  );
  await updateIds(downIds, async (part) => {
    await db.host.updateMany({
      where: { id: { in: part } },
      data: { state: "down", lastError: DOWN },
    });
    await db.host.updateMany({
      where: { id: { in: part }, ...INTERRUPTED_WHERE },
      data: { state: INTERRUPTED_STATE },
    });
  });

  // GPUs, by uuid
  const totalBy = new Map<string, bigint>();
  for (const s of totals) {
    const v = promNumber(s.value[1]);
    if (s.metric.uuid && v !== null) totalBy.set(s.metric.uuid, BigInt(Math.round(v)));
  }
  const wantGpus = new Map<string, { attrs: GpuAttrs; up: boolean }>();
  for (const s of gpus) {
    const m = s.metric;
    const hostId = idByHostname.get(hostnameByInstance.get(m.instance ?? "") ?? "");
    if (!hostId || !m.uuid) continue;
    wantGpus.set(m.uuid, {
      attrs: {
        hostId,
        index: Number(m.gpu ?? 0),
        name: m.name ?? "unknown",
        migMode: (m.mig_mode ?? "").toLowerCase() === "enabled",
        virtualizationMode: m.virtualization_mode || null,
        ...(licensed.has(m.uuid) ? { vgpuLicensed: licensed.get(m.uuid) } : {}),
      },
      up: upBy.get(m.instance ?? "") ?? false,
    });
  }
  // the stored GPUs of these hosts, plus any other that Prometheus names (moved, or only in the
  // memory totals: those reach GPUs that gpu_info did not list this time)
  const select = {
    uuid: true,
    hostId: true,
    index: true,
    name: true,
    migMode: true,
    memoryTotalBytes: true,
    parentUuid: true,
    virtualizationMode: true,
    vgpuLicensed: true,
  } as const;
  const hostIds = [...idByHostname.values()];
  const storedGpus = new Map(
    (await findIn(hostIds, (part) => db.gpu.findMany({ where: { hostId: { in: part } }, select })))
      .filter((g) => g.parentUuid === null)
      .map((g) => [g.uuid, g]),
  );
  const others = [...new Set([...wantGpus.keys(), ...totalBy.keys()])].filter(
    (u) => !storedGpus.has(u),
  );
  for (const g of await findIn(others, (part) =>
    db.gpu.findMany({ where: { uuid: { in: part } }, select }),
  ))
    storedGpus.set(g.uuid, g);

  const newGpus = [...wantGpus].filter(([uuid]) => !storedGpus.has(uuid));
  for (const part of chunked(newGpus, IN_CHUNK)) {
    await db.gpu.createMany({
      data: part.map(([uuid, w]) => ({
        uuid,
        ...w.attrs,
        memoryTotalBytes: totalBy.get(uuid) ?? 0n,
        ...(w.up ? { lastSeen: now } : {}),
      })),
    });
    await yieldToLoop();
  }
  for (const [uuid, cur] of storedGpus) {
    const total = totalBy.get(uuid);
    const want = {
      ...wantGpus.get(uuid)?.attrs,
      ...(total !== undefined ? { memoryTotalBytes: total } : {}),
    };
    if (differs(want, cur)) {
      await db.gpu.update({ where: { uuid }, data: want });
      Object.assign(cur, want);
      await yieldToLoop();
    }
  }

  // seen now: every GPU an up host reported. Written per chunk of hosts, leaving out the stored
  // GPUs of those hosts that were not reported (few, or by uuid when many)
  const reportedUp = new Set([...wantGpus].filter(([, w]) => w.up).map(([u]) => u));
  const upSet = new Set(upIds);
  const unreportedBy = new Map<string, string[]>();
  for (const g of storedGpus.values()) {
    if (!upSet.has(g.hostId) || reportedUp.has(g.uuid)) continue;
    const list = unreportedBy.get(g.hostId);
    if (list) list.push(g.uuid);
    else unreportedBy.set(g.hostId, [g.uuid]);
  }
  for (const part of chunked(upIds, IN_CHUNK)) {
    const unreported = part.flatMap((id) => unreportedBy.get(id) ?? []);
    if (unreported.length <= NOT_IN_MAX) {
      await db.gpu.updateMany({
        where: {
          hostId: { in: part },
          parentUuid: null,
          ...(unreported.length > 0 ? { uuid: { notIn: unreported } } : {}),
        },
        data: { lastSeen: now },
      });
    } else {
      const inPart = new Set(part);
      const seen = [...storedGpus.values()]
        .filter((g) => inPart.has(g.hostId) && reportedUp.has(g.uuid))
        .map((g) => g.uuid);
      await updateIds(seen, (uuids) =>
        db.gpu.updateMany({ where: { uuid: { in: uuids } }, data: { lastSeen: now } }),
      );
    }
    await yieldToLoop();
  }
  return infos.length;
}
