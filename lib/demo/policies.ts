import "server-only";
import type { Db } from "../db.ts";

// The demo's idle-release policies (issue 25), both on the simulated cloud (no cloud client is
// ever built): a fleet-wide one in dry run from the first minute, listing what it would stop and
// the $ it would save; and an active one for the one host labelled idle_release=demo (the empty
// V100 of exporter/sim/demo-hosts.ts), which sits idle through the seeded history, so at the first
// ticks it is warned, then stopped at the simulator: its exporter answers 503, its cost stops, and
// its realized savings grow on the costs and recommendations pages. Created once; an admin's
// later edits are kept.

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
