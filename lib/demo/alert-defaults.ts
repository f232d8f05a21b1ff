import "server-only";
import { eventReasons } from "../../exporter/sim/field-groups.ts";
import { buildFleet } from "../../exporter/sim/fleet.ts";
import { gpuModel } from "../../exporter/sim/gpu-models.ts";
import { sampleGpu } from "../../exporter/sim/sample.ts";
import type { SimFleet } from "../../exporter/sim/types.ts";
import type { Db } from "../db.ts";
import { installDefaultRules } from "../alerts/rules/default-rules.ts";

// Demo alerting: the default rules (which every store gets, lib/alerts/rules/default-rules.ts),
// two example channels that are switched OFF (the demo sends nothing anywhere), and the health
// columns (ECC counters, clock events) of the seeded chart minutes, filled from the same simulator the live exporter serves,
// so idle, budget and health alerts fire on the first evaluation.

/** the demo fleet's simulator seed (DEMO_SEED in ./seed.ts, which imports this file) */
const DEMO_SEED = 42;
const POWER_BITS = 0x4 | 0x80; // sw_power_cap, hw_power_brake_slowdown
const THERMAL_BITS = 0x8 | 0x20 | 0x40; // hw_slowdown, sw/hw thermal slowdown
/** minutes back from the newest seeded minute whose clock events are filled in */
const EVENT_MINUTES = 90;

// 127.0.0.1:9 is the discard port: nothing listens, and the channels are disabled anyway.
const EXAMPLE_CHANNELS = [
  {
    name: "Ops webhook (example, disabled)",
    kind: "webhook",
    url: "http://127.0.0.1:9/gpufleet/alerts",
    scopeKind: "fleet",
    scopeValue: "",
    kinds: "[]",
    enabled: false,
  },
  {
    name: "Research team Slack (example, disabled)",
    kind: "slack",
    url: "http://127.0.0.1:9/services/T0000/B0000/example",
    scopeKind: "team",
    scopeValue: "research",
    kinds: JSON.stringify(["idle", "budget"]),
    enabled: false,
  },
];

async function seedChannels(db: Db): Promise<void> {
  if ((await db.channel.count()) > 0) return;
  for (const c of EXAMPLE_CHANNELS) await db.channel.create({ data: c });
}

/** Runs of equal values over consecutive times, as [from, to) ranges. */
function runs<T>(times: number[], valueAt: (t: number) => T, step: number) {
  const out: { from: number; to: number; value: T }[] = [];
  for (const t of times) {
    const v = valueAt(t);
    const last = out.at(-1);
    if (last && JSON.stringify(last.value) === JSON.stringify(v)) last.to = t + step;
    else out.push({ from: t, to: t + step, value: v });
  }
  return out;
}

async function fillHealthColumns(db: Db, fleet: SimFleet): Promise<void> {
  const hostIds = new Map(
    (await db.host.findMany({ select: { id: true, hostname: true } })).map((h) => [
      h.hostname,
      h.id,
    ]),
  );
  for (const host of fleet.hosts) {
    const hostId = hostIds.get(host.hostname);
    if (!hostId) continue;
    for (const gpu of host.gpus) {
      const minutes = await db.gpuMinute.findMany({
        where: { gpuUuid: gpu.uuid },
        select: { minuteStart: true },
        orderBy: { minuteStart: "asc" },
      });
      const times = minutes.map((m) => m.minuteStart.getTime());
      const newest = times.at(-1);
      if (newest === undefined) continue;
      await db.gpu.updateMany({ where: { uuid: gpu.uuid }, data: { lastSeen: new Date(newest) } });
      // ECC counters over the whole chart window, one update per run of equal values.
      const ecc = runs(
        times,
        (t) => {
          const s = sampleGpu(fleet, host, gpu, new Date(t));
          return [s.eccCorrected, s.eccUncorrected];
        },
        60_000,
      );
      for (const r of ecc) {
        await db.gpuMinute.updateMany({
          where: { gpuUuid: gpu.uuid, minuteStart: { gte: new Date(r.from), lt: new Date(r.to) } },
          data: { eccCorrected: r.value[0], eccUncorrected: r.value[1] },
        });
      }
      // Clock events over the last EVENT_MINUTES (the 1-minute part of the seeded window).
      const recent = times.filter((t) => t > newest - EVENT_MINUTES * 60_000);
      const model = gpuModel(gpu.name);
      const events = runs(
        recent,
        (t) => {
          const at = new Date(t);
          const bits = eventReasons({ host, gpu, s: sampleGpu(fleet, host, gpu, at), model, at });
          return [bits & THERMAL_BITS ? 1 : 0, bits & POWER_BITS ? 1 : 0];
        },
        60_000,
      );
      for (const r of events) {
        await db.gpuMinute.updateMany({
          where: { gpuUuid: gpu.uuid, minuteStart: { gte: new Date(r.from), lt: new Date(r.to) } },
          data: { thermalThrottleRatio: r.value[0], powerThrottleRatio: r.value[1] },
        });
      }
    }
  }
}

/** Called once after the demo is seeded (lib/demo/seed.ts). Safe to call again: it skips. */
export async function seedDemoAlerting(db: Db): Promise<void> {
  await installDefaultRules(db);
  await seedChannels(db);
  const demoHosts = await db.host.count({ where: { origin: "demo" } });
  if (demoHosts > 0) await fillHealthColumns(db, buildFleet({ seed: DEMO_SEED, hosts: demoHosts }));
}
