import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFleet } from "../../exporter/sim/fleet.ts";
import { createEmbeddedSource } from "../metrics/embedded/source.ts";
import { evaluateAlerts } from "../alerts/evaluate-rules.ts";
import type { Db } from "../db.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { RETIRED_LABEL, reconcileDemo, type ReconcileOptions } from "./reconcile.ts";
import { DEMO_SEED, seedDemo } from "./seed.ts";

// The demo fleet on a restart with another exporter port or host count (lib/demo/reconcile.ts).

const OLD = "http://127.0.0.1:9445";
const NEW = "http://127.0.0.1:42739";
const NOW = new Date();
let db: Db;
let url: string;

const fleet26 = buildFleet({ seed: DEMO_SEED, hosts: 26 });
const extra = fleet26.hosts.slice(24);
const extraNames = extra.map((h) => h.hostname);

// short windows keep the seeding quick (PostgreSQL inserts through Prisma)
const HISTORY_DAYS = 1;
const LEDGER_HOURS = HISTORY_DAYS * 24 + 1;

function opts(exporterBase: string, hosts: number): ReconcileOptions {
  return {
    exporterBase,
    databaseUrl: url,
    hosts,
    now: NOW,
    historyDays: HISTORY_DAYS,
    chartDays: 0,
  };
}

async function demoHosts() {
  return db.host.findMany({ where: { origin: "demo" }, orderBy: { hostname: "asc" } });
}

async function evaluate(now: Date) {
  const r = await evaluateAlerts(db, {
    now,
    metrics: createEmbeddedSource(db, 15),
    intervalS: 15,
  });
  expect(r.errors).toEqual([]);
}

async function openAlerts(hostIds: string[]) {
  return db.alert.findMany({
    where: { hostId: { in: hostIds }, state: { not: "resolved" } },
    include: { rule: { select: { kind: true } } },
  });
}

const gpuRowCount = (h: (typeof extra)[number]) =>
  h.gpus.reduce((n, g) => n + 1 + (g.mig?.length ?? 0), 0);

beforeAll(async () => {
  ({ db, url } = makeTestDb());
  await seedDemo(db, { ...opts(OLD, 24) });
  // a host of another origin, whose target names the old exporter: never touched
  await db.host.create({
    data: {
      hostname: "file-sd-host",
      target: `${OLD}/hosts/99/metrics`,
      origin: "file_sd",
    },
  });
}, 300_000);
afterAll(async () => db.$disconnect());

describe("reconcileDemo", () => {
  it("leaves a store without demo hosts alone", async () => {
    const other = makeTestDb();
    try {
      await other.db.host.create({ data: { hostname: "mine", target: `${OLD}/hosts/0/metrics` } });
      expect(await reconcileDemo(other.db, { ...opts(NEW, 26), databaseUrl: other.url })).toBe(
        null,
      );
      const hosts = await other.db.host.findMany();
      expect(hosts.map((h) => [h.hostname, h.target])).toEqual([
        ["mine", `${OLD}/hosts/0/metrics`],
      ]);
    } finally {
      await other.db.$disconnect();
    }
  });

  it("is a no-op when nothing changed", async () => {
    const r = await reconcileDemo(db, opts(OLD, 24));
    expect(r).toEqual({ retargeted: [], added: [], retired: [], restored: [] });
  });

  it("points every demo host at a changed exporter port, and only demo hosts", async () => {
    await db.host.updateMany({
      where: { origin: "demo" },
      data: { state: "down", lastError: "connect ECONNREFUSED 127.0.0.1:42739" },
    });
    const r = await reconcileDemo(db, opts(NEW, 24));
    expect(r?.retargeted).toHaveLength(24);
    expect(r?.added).toEqual([]);
    const hosts = await demoHosts();
    const fleet = buildFleet({ seed: DEMO_SEED, hosts: 24 });
    const byName = new Map(hosts.map((h) => [h.hostname, h]));
    for (const spec of fleet.hosts) {
      const h = byName.get(spec.hostname);
      expect(h?.target).toBe(`${NEW}/hosts/${spec.id}/metrics`);
      expect(h?.state).toBe("unknown");
      expect(h?.lastError).toBe(null);
    }
    const other = await db.host.findUnique({ where: { hostname: "file-sd-host" } });
    expect(other?.target).toBe(`${OLD}/hosts/99/metrics`);
  });

  it("adds the hosts a larger fleet gained, with their GPUs and history", async () => {
    const r = await reconcileDemo(db, opts(NEW, 26));
    expect(r?.added).toEqual(extraNames);
    expect(r?.retargeted).toEqual([]);
    expect(await db.host.count({ where: { origin: "demo" } })).toBe(26);
    for (const spec of extra) {
      const h = await db.host.findUnique({
        where: { hostname: spec.hostname },
        include: { gpus: true },
      });
      expect(h?.target).toBe(`${NEW}/hosts/${spec.id}/metrics`);
      expect(h?.origin).toBe("demo");
      expect(h?.instanceType).toBe(spec.instanceType);
      expect(h?.team).toBe(spec.team);
      expect(h?.gpus).toHaveLength(gpuRowCount(spec));
      expect(new Set(h?.gpus.map((g) => g.uuid))).toEqual(
        new Set([
          ...spec.gpus.map((g) => g.uuid),
          ...spec.gpus.flatMap((g) => (g.mig ?? []).map((m) => `${g.uuid}:gi${m.gpuInstanceId}`)),
        ]),
      );
      expect(await db.usageHour.count({ where: { hostId: h?.id, gpuKey: "host" } })).toBe(
        LEDGER_HOURS,
      );
      expect(await db.hostMinute.count({ where: { hostId: h?.id } })).toBeGreaterThan(0);
    }
  });

  it("retires the hosts a smaller fleet lost: history kept, no alert for them", async () => {
    const before = await db.host.findMany({ where: { hostname: { in: extraNames } } });
    const ids = before.map((h) => h.id);
    const ledgerBefore = await db.usageHour.count({ where: { hostId: { in: ids } } });
    expect(ledgerBefore).toBeGreaterThan(0);

    // in the fleet, the rules judge them: never scraped (exporter_down), and GPU 4 of the last
    // one is an empty_idle GPU in the simulator, idle in its seeded minutes (idle)
    await evaluate(NOW);
    const openBefore = await openAlerts(ids);
    expect(new Set(openBefore.map((a) => a.hostId))).toEqual(new Set(ids));
    expect(new Set(openBefore.map((a) => a.rule.kind))).toEqual(new Set(["exporter_down", "idle"]));

    const r = await reconcileDemo(db, opts(NEW, 24));
    expect(r?.retired).toEqual(extraNames);

    const after = await db.host.findMany({
      where: { hostname: { in: extraNames } },
      include: { gpus: true },
    });
    expect(after.map((h) => h.id).sort()).toEqual([...ids].sort());
    for (const h of after) {
      expect(h.target).toBe(null);
      expect(h.state).toBe("retired");
      expect(h.gpus).toEqual([]);
      expect(JSON.parse(h.labels)[RETIRED_LABEL]).toBe("true");
    }
    expect(await db.usageHour.count({ where: { hostId: { in: ids } } })).toBe(ledgerBefore);
    expect(await db.host.count({ where: { origin: "demo", target: { not: null } } })).toBe(24);

    // their open alerts resolve on the next evaluation, with their last minutes still in the
    // idle window, and none opens an hour later, when every demo host has been silent (nothing
    // scraped them): the kept ones and the file_sd host fire, the retired ones not
    await evaluate(NOW);
    expect(await openAlerts(ids)).toEqual([]);
    await evaluate(new Date(NOW.getTime() + 3600_000));
    expect(await openAlerts(ids)).toEqual([]);
    // by their state, not by editing anyone's rules
    const rule = await db.alertRule.findFirstOrThrow({ where: { kind: "exporter_down" } });
    expect(JSON.parse(rule.excludeLabels)).toEqual({});
    const down = await db.alert.findMany({ where: { ruleId: rule.id, state: "firing" } });
    expect(new Set(down.map((a) => a.hostId)).size).toBe(25);
  });

  it("does nothing more when run again on the smaller fleet", async () => {
    const r = await reconcileDemo(db, opts(NEW, 24));
    expect(r).toEqual({ retargeted: [], added: [], retired: [], restored: [] });
  });

  it("restores retired hosts when the fleet grows again", async () => {
    const r = await reconcileDemo(db, opts(OLD, 26));
    expect(r?.restored).toEqual(extraNames);
    expect(r?.added).toEqual([]);
    expect(r?.retargeted).toHaveLength(24);
    for (const spec of extra) {
      const h = await db.host.findUniqueOrThrow({
        where: { hostname: spec.hostname },
        include: { gpus: true },
      });
      expect(h.target).toBe(`${OLD}/hosts/${spec.id}/metrics`);
      expect(h.state).toBe("unknown");
      expect(h.gpus).toHaveLength(gpuRowCount(spec));
      expect(JSON.parse(h.labels)[RETIRED_LABEL]).toBeUndefined();
      expect(await db.usageHour.count({ where: { hostId: h.id, gpuKey: "host" } })).toBe(
        LEDGER_HOURS,
      );
    }
  });
});
