import "server-only";
import type { Db } from "../db.ts";
import { scaleSettingsSchema } from "../zod/schemas/policy.ts";

// The demo's policies (issue 25), all on the simulated cloud (no cloud client is ever built):
// - a fleet-wide idle-release policy in dry run from the first minute, listing what it would stop
//   and the $ it would save;
// - an active one for the one host labelled idle_release=demo (the empty V100 of
//   exporter/sim/demo-hosts.ts), which sits idle through the seeded history, so at the first ticks
//   it is warned, then stopped at the simulator: its exporter answers 503, its cost stops, and its
//   realized savings grow on the costs and recommendations pages;
// - a scale policy in dry run over the llm-pretrain project, whose pools (instance type and team)
//   are the simulator's training hosts: their GPUs run at 90-100 % but for a checkpoint every
//   45-90 minutes (exporter/sim/load.ts trainingLoad), so a pool stays at or above 80 % for 15
//   minutes most of the time and the settings page lists a would-be scale-out with its figures
//   within the first minutes after the collector marks the hosts up. The p5.48xlarge pool (7 of 8
//   GPUs training, one held idle) stays under the 90 % of GPU time the rule asks for and is not
//   listed. An hour's cool-down keeps the list to about one signal per pool an hour.
// Created once; an admin's later edits are kept.

export const DEMO_SCALE_POLICY = "Scale out busy pretraining pools";

export const DEMO_POLICIES = [
  {
    name: "Idle 24 h: stop (fleet)",
    mode: "dry_run",
  },
  {
    name: "Demo: release the empty V100",
    mode: "active",
    idleHours: 1,
    warnAt: JSON.stringify([0.5, 0.9]),
    graceMinutes: 2,
    scopeKind: "label",
    scopeValue: "idle_release=demo",
  },
  {
    name: DEMO_SCALE_POLICY,
    kind: "scale",
    mode: "dry_run",
    scopeKind: "project",
    scopeValue: "llm-pretrain",
    scale: JSON.stringify(scaleSettingsSchema.parse({ cooldownMinutes: 60, min: 1, max: 4 })),
  },
] as const;

export async function seedDemoPolicies(db: Db): Promise<number> {
  let created = 0;
  for (const p of DEMO_POLICIES) {
    if (await db.policy.findUnique({ where: { name: p.name } })) continue;
    await db.policy.create({ data: { ...p, executor: "simulated" } });
    created++;
  }
  return created;
}
