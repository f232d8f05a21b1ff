import "server-only";
import { randomUUID } from "node:crypto";
import { DAY_MS, HOUR_MS } from "../core/time.ts";
import type { Db } from "../db.ts";
import { pruneMinutes } from "../ingest/retention.ts";
import type { MetricsBackend } from "../metrics/backend.ts";
import type { TickJob } from "../tick/context.ts";
import { scrapeAll } from "../ingest/scrape.ts";
import { readTargetsFile } from "../ingest/targets.ts";
import { discoverFromPrometheus } from "../ingest/discover-prometheus.ts";
import { releaseLease, tryAcquireLease } from "./lease.ts";
import { newRecorderState, recordScrapes } from "../ingest/record-scrapes.ts";
import { syncTargets } from "../ingest/sync-targets.ts";

// The collector: one loop per server process. Only the lease holder works, so replicas on one
// database never double a ledger hour. Ticks never overlap, and one failing step never stops it.

export interface CollectorConfig {
  intervalS: number;
  scrapeTimeoutMs: number;
  scrapeConcurrency: number;
  retentionDays: number;
  /** what every job reads; in Prometheus mode hosts are also discovered from `metrics.prom` */
  metrics: MetricsBackend;
  targetsFile?: string;
  /** extra jobs run after each tick by the leader (ledger, alerts, recommendations) */
  jobs?: TickJob[];
  log?: (msg: string) => void;
  /** false in tests that call tick() themselves */
  autoStart?: boolean;
}

export interface ShutdownOptions {
  /** the most it waits, in all, for the tick and the background work in flight */
  timeoutMs: number;
  /** background work started by a job that outlives its tick (the delivery run), if any */
  inFlight?: () => Promise<void> | null;
}

export interface Collector {
  holder: string;
  tick(): Promise<void>;
  stop(): void;
  /**
   * Graceful stop: no new ticks, waits (bounded) for the tick and background work in flight, then
   * releases the lease so a replica takes over on its next tick. `drained` is false on a timeout.
   */
  shutdown(o: ShutdownOptions): Promise<{ drained: boolean }>;
}

/** Resolves true when `p` settles within `ms`, false otherwise (and never rejects). */
export function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), Math.max(0, ms));
    void p
      .then(
        () => resolve(true),
        () => resolve(true),
      )
      .finally(() => clearTimeout(timer));
  });
}

export function createCollector(db: Db, cfg: CollectorConfig): Collector {
  const holder = randomUUID();
  const state = newRecorderState();
  const prom = cfg.metrics.prom;
  const metrics = cfg.metrics.source;
  const log = cfg.log ?? ((m: string) => console.error(`[collector] ${m}`));
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let current: Promise<void> | null = null;
  let lastPrune = 0;

  async function step(name: string, fn: () => Promise<void>) {
    try {
      await fn();
    } catch (e) {
      log(`${name} failed: ${(e as Error).message}`);
    }
  }

  function tick(): Promise<void> {
    const run = tickOnce().finally(() => {
      if (current === run) current = null;
    });
    current = run;
    return run;
  }

  async function tickOnce() {
    const now = new Date();
    const leader = await tryAcquireLease(
      db,
      "collector",
      holder,
      cfg.intervalS * 3000 + 10_000,
      now,
    );
    if (!leader) return;
    if (prom) {
      await step("prometheus discovery", async () => {
        await discoverFromPrometheus(db, prom, now);
      });
    } else {
      if (cfg.targetsFile) {
        const file = cfg.targetsFile;
        await step("targets file", async () =>
          syncTargets(db, await readTargetsFile(file), "file_sd"),
        );
      }
      await step("scrape", async () => {
        const hosts = await db.host.findMany({
          where: { target: { not: null } },
          select: { id: true, target: true },
        });
        const urls = hosts.map((h) => h.target ?? "");
        const results = await scrapeAll(urls, {
          concurrency: cfg.scrapeConcurrency,
          timeoutMs: cfg.scrapeTimeoutMs,
        });
        const scraped = results.flatMap((result, i) => {
          const host = hosts[i];
          return host ? [{ hostId: host.id, result }] : [];
        });
        await recordScrapes(db, state, scraped, now, log);
      });
    }
    for (const job of cfg.jobs ?? []) await step(job.name, () => job.run({ db, now, metrics }));
    if (now.getTime() - lastPrune > HOUR_MS) {
      lastPrune = now.getTime();
      await step("retention", async () => {
        await pruneMinutes(db, new Date(now.getTime() - cfg.retentionDays * DAY_MS));
      });
    }
    await db.jobState.upsert({
      where: { name: "collector.lastTick" },
      create: { name: "collector.lastTick", value: now.toISOString() },
      update: { value: now.toISOString() },
    });
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(async () => {
      if (stopped) return;
      await step("tick", tick);
      schedule();
    }, cfg.intervalS * 1000);
    timer.unref?.();
  }

  function stop() {
    stopped = true;
    if (timer) clearTimeout(timer);
  }

  if (cfg.autoStart !== false) void step("first tick", tick).then(schedule);
  return {
    holder,
    tick,
    stop,
    async shutdown(o) {
      stop();
      const deadline = Date.now() + o.timeoutMs;
      let drained = current ? await settlesWithin(current, o.timeoutMs) : true;
      const background = o.inFlight?.() ?? null;
      if (drained && background) drained = await settlesWithin(background, deadline - Date.now());
      try {
        await releaseLease(db, "collector", holder);
      } catch (e) {
        log(`releasing the lease failed: ${(e as Error).message}`);
      }
      return { drained };
    },
  };
}
