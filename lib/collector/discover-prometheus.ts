import "server-only";
import type { Db } from "../db.ts";
import type { PromClient } from "../metrics/prom-api.ts";
import { promNumber } from "../metrics/prom-api.ts";

// In prometheus mode the app scrapes nothing: hosts and GPUs are learnt from gpu_host_info and
// gpu_info, and a host is up when Prometheus's own `up` for its instance is 1.

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
]);

export async function discoverFromPrometheus(
  db: Db,
  client: PromClient,
  now = new Date(),
): Promise<number> {
  const [infos, ups, gpus] = await Promise.all([
    client.query("gpu_host_info"),
    client.query("up"),
    client.query("gpu_info"),
  ]);
  const upBy = new Map(ups.map((s) => [s.metric.instance ?? "", s.value[1] === "1"]));
  const hostIdByInstance = new Map<string, string>();
  for (const s of infos) {
    const m = s.metric;
    if (!m.hostname) continue;
    const up = upBy.get(m.instance ?? "") ?? false;
    const labels = Object.fromEntries(Object.entries(m).filter(([k]) => !ATTR.has(k)));
    const data = {
      provider: m.provider || "unknown",
      instanceType: m.instance_type || "unknown",
      region: m.region || "unknown",
      pricingModel: m.pricing_model || "on_demand",
      ...(m.team ? { team: m.team } : {}),
      ...(m.project ? { project: m.project } : {}),
      ...(m.owner ? { owner: m.owner } : {}),
      labels: JSON.stringify(labels),
      state: up ? "up" : "down",
      ...(up
        ? { lastSeen: now, lastError: null }
        : { lastError: "Prometheus reports the target down" }),
    };
    const host = await db.host.upsert({
      where: { hostname: m.hostname },
      create: { hostname: m.hostname, origin: "prometheus", ...data },
      update: data,
    });
    hostIdByInstance.set(m.instance ?? "", host.id);
  }
  for (const s of gpus) {
    const m = s.metric;
    const hostId = hostIdByInstance.get(m.instance ?? "");
    if (!hostId || !m.uuid) continue;
    const up = upBy.get(m.instance ?? "") ?? false;
    const data = {
      hostId,
      index: Number(m.gpu ?? 0),
      name: m.name ?? "unknown",
      migMode: (m.mig_mode ?? "").toLowerCase() === "enabled",
      ...(up ? { lastSeen: now } : {}),
    };
    await db.gpu.upsert({
      where: { uuid: m.uuid },
      create: { uuid: m.uuid, memoryTotalBytes: 0n, ...data },
      update: data,
    });
  }
  const totals = await client.query("gpu_memory_total_bytes");
  for (const s of totals) {
    const v = promNumber(s.value[1]);
    if (s.metric.uuid && v !== null) {
      await db.gpu.updateMany({
        where: { uuid: s.metric.uuid },
        data: { memoryTotalBytes: BigInt(Math.round(v)) },
      });
    }
  }
  return infos.length;
}
