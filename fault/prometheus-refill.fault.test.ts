import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateAlerts } from "@/lib/alerts/evaluate-rules.ts";
import type { Db } from "@/lib/db.ts";
import { runLedgerJob } from "@/lib/ledger/job.ts";
import { embeddedBackend } from "@/lib/metrics/backend.ts";
import { createPromClient } from "@/lib/metrics/prometheus/api.ts";
import { createPrometheusSource } from "@/lib/metrics/prometheus/source.ts";
import type { MetricsSource } from "@/lib/metrics/source.ts";
import { freePort, hasPrometheus, type RunningPrometheus } from "@/lib/testing/prometheus.ts";
import { makeTestDb, testDbKind } from "@/lib/testing/test-db.ts";
import {
  hasPromtool,
  seedOpenMetrics,
  seedTsdb,
  startSeededPrometheus,
} from "./seeded-prometheus.ts";
import { seedClosedHours, SEED_GPUS, SEED_HOSTS } from "./seed-minutes.ts";

// Prometheus mode, the app cut off from Prometheus for the last HOURS closed hours, Prometheus's
// own history intact (written before it starts with promtool, from the same pinned samples the
// embedded seed stores). While it cannot be reached the ledger job writes nothing, not even an
// empty hour, and does not move its mark; the one backend alert opens and no exporter is judged
// down. Once it answers, the alert resolves, no exporter-down alert follows from the hosts'
// frozen lastSeen, and the ledger writes the missed hours from Prometheus's history: the same
// rows as a store whose Prometheus never went away, and as the embedded ledger of the same samples.

const HOURS = 3;
const NOW = new Date("2026-11-25T15:20:00.000Z"); // pinned: the closed hours are 12:00-15:00
const FIRST = new Date("2026-11-25T12:00:00.000Z");
const BEFORE_FIRST = new Date(FIRST.getTime() - 3_600_000).toISOString();
const INTERVAL_S = 15;
const OUTAGE_TICKS = 8; // two minutes of alert evaluations while it is unreachable
const tick = (k: number) => new Date(NOW.getTime() + k * INTERVAL_S * 1000);

let prom: RunningPrometheus | null = null;
let refill: Db; // cut off, then back
let steady: Db; // Prometheus never went away
let embedded: Db; // the embedded ledger of the same samples
let source: MetricsSource;
let whileDown: Error | null = null;
let rowsWhileDown = -1;
let markWhileDown: string | undefined;

/** The ledger had been written up to the hour before the outage. */
async function ledgerWrittenTo(db: Db, hourIso: string) {
  await db.jobState.create({ data: { name: "ledger.lastHour", value: hourIso } });
}

async function ledgerMark(db: Db) {
  return (await db.jobState.findUnique({ where: { name: "ledger.lastHour" } }))?.value;
}

/** Every ledger row, keyed by hour, hostname and GPU, with its figures. */
async function ledger(db: Db) {
  const rows = await db.usageHour.findMany({ include: { host: { select: { hostname: true } } } });
  return Object.fromEntries(
    rows.map((r) => [
      `${r.hourStart.toISOString()}|${r.host.hostname}|${r.gpuKey}`,
      {
        upSeconds: r.upSeconds,
        samples: r.samples,
        idleSeconds: r.idleSeconds,
        idleHeldSeconds: r.idleHeldSeconds,
        utilMean: r.utilMean === null ? null : Math.round(r.utilMean * 1e9) / 1e9,
        priced: r.priced,
        costMicros: r.costMicros,
        idleCostMicros: r.idleCostMicros,
      },
    ]),
  );
}

describe.skipIf(!hasPrometheus || !hasPromtool)(
  `Prometheus unreachable for ${HOURS} hours, then back: the ledger refills (${testDbKind()})`,
  () => {
    beforeAll(async () => {
      refill = makeTestDb().db;
      steady = makeTestDb().db;
      embedded = makeTestDb().db;
      // same hosts, GPUs and prices in every store; minutes only in the embedded one
      await seedClosedHours(refill, NOW, 0);
      await seedClosedHours(steady, NOW, 0);
      await seedClosedHours(embedded, NOW, HOURS);
      await runLedgerJob({ db: embedded, now: NOW, metrics: embeddedBackend(embedded, 60).source });
      await ledgerWrittenTo(refill, BEFORE_FIRST);
      await ledgerWrittenTo(steady, BEFORE_FIRST);
      await refill.host.updateMany({ data: { lastSeen: NOW, state: "up" } });
      await refill.alertRule.create({ data: { name: "Exporter down", kind: "exporter_down" } });
      await refill.alertRule.create({
        data: { name: "Metrics backend down", kind: "metrics_backend_down" },
      });

      const data = seedTsdb(seedOpenMetrics(NOW, HOURS, SEED_HOSTS));
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      source = createPrometheusSource(refill, url, createPromClient(url, { timeoutMs: 5000 }));

      // cut off: the ledger job at the pinned hour, and two minutes of alert evaluations
      await runLedgerJob({ db: refill, now: NOW, metrics: source }).catch(
        (e: Error) => (whileDown = e),
      );
      rowsWhileDown = await refill.usageHour.count();
      markWhileDown = await ledgerMark(refill);
      for (let k = 1; k <= OUTAGE_TICKS; k++)
        await evaluateAlerts(refill, { now: tick(k), metrics: source, intervalS: INTERVAL_S });
      expect(await refill.alert.count({ where: { state: "firing" } })).toBe(1);

      // back, on the same address, with its history
      prom = await startSeededPrometheus(data, port);
      await evaluateAlerts(refill, {
        now: tick(OUTAGE_TICKS + 1),
        metrics: source,
        intervalS: INTERVAL_S,
      });
      await runLedgerJob({ db: refill, now: NOW, metrics: source });
      const steadySource = createPrometheusSource(steady, url, createPromClient(url));
      await runLedgerJob({ db: steady, now: NOW, metrics: steadySource });
    }, 60_000);

    afterAll(async () => {
      await prom?.stop();
      await Promise.all([refill, steady, embedded].map((db) => db?.$disconnect()));
    });

    it("while unreachable, the ledger job fails and writes no hour, nor moves its mark", () => {
      expect(whileDown?.message).toMatch(
        /^Prometheus unreachable at http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/,
      );
      expect(rowsWhileDown).toBe(0); // no zeros, no empty hour
      expect(markWhileDown).toBe(BEFORE_FIRST); // no gap marked as done
    });

    it("the outage opened one backend alert, which resolved when Prometheus answered", async () => {
      const alerts = await refill.alert.findMany({ orderBy: { startsAt: "asc" } });
      expect(alerts.map((a) => [a.kind, a.state])).toEqual([["metrics_backend_down", "resolved"]]);
      expect(alerts[0]?.startsAt).toEqual(tick(4)); // more than 2 intervals after tick 1
      expect(alerts[0]?.endsAt).toEqual(tick(OUTAGE_TICKS + 1)); // the first answer, no hold
      // lastSeen froze at NOW, 2¼ min before the first answer: not an exporter outage
      expect(await refill.alert.count({ where: { kind: "exporter_down" } })).toBe(0);
    });

    it("once back, the missed hours are written from Prometheus's history", async () => {
      const got = await ledger(refill);
      const hours = new Set(Object.keys(got).map((k) => k.split("|")[0]));
      expect([...hours].sort()).toEqual([
        "2026-11-25T12:00:00.000Z",
        "2026-11-25T13:00:00.000Z",
        "2026-11-25T14:00:00.000Z",
      ]);
      expect(Object.keys(got)).toHaveLength(HOURS * SEED_HOSTS * (1 + SEED_GPUS));
      expect(await ledgerMark(refill)).toBe("2026-11-25T14:00:00.000Z");
      for (const [key, row] of Object.entries(got)) {
        // every host answered every minute of every hour: a whole hour up, priced
        expect(row, key).toMatchObject({ upSeconds: 3600, samples: 60, priced: true });
        expect(row.costMicros, key).toBeGreaterThan(0n);
      }
    });

    it("the refilled rows equal a never-interrupted Prometheus ledger and the embedded one", async () => {
      const got = await ledger(refill);
      expect(got).toEqual(await ledger(steady));
      expect(got).toEqual(await ledger(embedded));
    });
  },
);
