import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeGpu, makeHost } from "../alerts/fixtures.ts";
import type { Db } from "../db.ts";
import { installShippedCatalogue } from "../pricing/seed.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { scriptedMetrics } from "../testing/scripted-metrics.ts";
import { policyInputSchema } from "../zod/schemas/policy.ts";
import { runPolicyJob } from "./job.ts";
import { listPlannedActions } from "./plan.ts";
import { createPolicy } from "./store.ts";

// Two dry-run policies over one wholly idle host: once one of them has stopped the host (its
// episode "acted"), the other neither lists it nor keeps its own episode open (seen in the demo:
// the fleet-wide dry run still offered to stop the V100 the demo's active policy had stopped).

const H = 3_600_000;
const T0 = new Date("2026-11-20T12:00:00Z");
const AUDIT = { actor: "admin@example.com", ip: null };
let db: Db;

const metrics = () =>
  scriptedMetrics(
    () => db.gpu.findMany({ select: { hostId: true, uuid: true } }),
    (_h, _u, t) => (t >= T0.getTime() - 30 * H ? 0.01 : 0.8),
  );

beforeAll(async () => {
  db = makeTestDb().db;
  await installShippedCatalogue(db);
  const h = await makeHost(db, "idle-v100", { lastSeen: T0 });
  await makeGpu(db, h.id, "idle-v100-0", 0);
});
afterAll(async () => db.$disconnect());

describe("a host one policy stopped", () => {
  it("is listed by neither policy while it stays stopped", async () => {
    const a = await createPolicy(policyInputSchema.parse({ name: "A" }), null, AUDIT, db);
    await createPolicy(policyInputSchema.parse({ name: "B" }), null, AUDIT, db);
    await runPolicyJob({ db, now: T0, metrics: metrics() });
    const before = await listPlannedActions(null, { client: db, now: T0 });
    expect(before.actions.map((x) => x.policyName).sort()).toEqual(["A", "B"]);

    // A stops it (as its executor would have): its episode is acted
    await db.policyEpisode.updateMany({
      where: { policyId: a.id },
      data: { state: "acted", action: "stop", actedAt: T0, openKey: null },
    });
    const later = new Date(T0.getTime() + 60_000);
    await runPolicyJob({ db, now: later, metrics: metrics() });
    expect((await listPlannedActions(null, { client: db, now: later })).actions).toEqual([]);
    const states = await db.policyEpisode.findMany({
      select: { state: true },
      orderBy: { state: "asc" },
    });
    expect(states.map((s) => s.state)).toEqual(["acted", "closed"]);
  });
});
