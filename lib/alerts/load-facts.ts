import "server-only";
import { LIVE_HOSTS } from "../ingest/host-state.ts";
import type { Db } from "../db.ts";
import { loadPriceRows } from "../pricing/catalogue-db.ts";
import { lookupPrice } from "../pricing/lookup.ts";
import { parseLabels } from "../core/labels.ts";
import type { GpuFacts, HostFacts } from "./facts.ts";

// The inventory the rules judge: hosts (with their current price) and GPUs, from the store.

export async function loadFacts(
  db: Db,
  now: Date,
): Promise<{ hosts: Map<string, HostFacts>; gpus: Map<string, GpuFacts> }> {
  const [hostRows, gpuRows, prices] = await Promise.all([
    db.host.findMany({ where: LIVE_HOSTS }),
    db.gpu.findMany({
      select: {
        uuid: true,
        hostId: true,
        index: true,
        name: true,
        parentUuid: true,
        firstSeen: true,
        lastSeen: true,
      },
    }),
    loadPriceRows(db),
  ]);
  const gpuCount = new Map<string, number>();
  for (const g of gpuRows)
    if (g.parentUuid === null) gpuCount.set(g.hostId, (gpuCount.get(g.hostId) ?? 0) + 1);
  const hosts = new Map<string, HostFacts>();
  for (const h of hostRows) {
    const price = lookupPrice(prices, { ...h, at: now });
    hosts.set(h.id, {
      id: h.id,
      hostname: h.hostname,
      provider: h.provider,
      instanceType: h.instanceType,
      region: h.region,
      pricingModel: h.pricingModel,
      team: h.team,
      project: h.project,
      owner: h.owner,
      labels: parseLabels(h.labels),
      state: h.state,
      lastError: h.lastError,
      firstSeen: h.firstSeen,
      lastSeen: h.lastSeen,
      hourlyMicros: price.priced ? price.usdPerHourMicros : null,
      gpuCount: price.priced ? price.gpuCount : (gpuCount.get(h.id) ?? 0),
      interruptionPending: h.interruptionPending,
      interruptionAt: h.interruptionAt,
    });
  }
  return { hosts, gpus: new Map(gpuRows.map((g) => [g.uuid, g])) };
}
