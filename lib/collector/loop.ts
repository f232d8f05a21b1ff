import "server-only";
import { randomUUID } from "node:crypto";
import type { Db } from "../db.ts";
import type { PromClient } from "../metrics/prom-api.ts";
import { scrapeAll } from "../metrics/scrape.ts";
import { readTargetsFile } from "../metrics/targets.ts";
import { discoverFromPrometheus } from "./discover-prometheus.ts";
import { tryAcquireLease } from "./lease.ts";
import { newRecorderState, recordScrapes } from "./record-scrapes.ts";
import { syncTargets } from "./sync-targets.ts";

// The collector: one loop per server process. Only the lease holder works, so replicas on one
// database never double a ledger hour. Ticks never overlap, and one failing step never stops it.

export interface CollectorConfig {
  intervalS: number;
  scrapeTimeoutMs: number;
  scrapeConcurrency: number;
  retentionDays: number;
  /** Prometheus mode: hosts are discovered from it, and the jobs read it (see promClientFromEnv) */
  prom?: PromClient;
  targetsFile?: string;
  /** extra jobs run after each tick by the leader (ledger, alerts, recommendations) */
  jobs?: Array<{ name: string; run: (ctx: TickContext) => Promise<void> }>;
  log?: (msg: string) => void;
  /** false in tests that call tick() themselves */
  autoStart?: boolean;
}

export interface TickContext {
  db: Db;
  now: Date;
  prom: PromClient | null;
}

export interface Collector {
  holder: string;
  tick(): Promise<void>;
  stop(): void;
}

export function createCollector(db: Db, cfg: CollectorConfig): Collector {
  const holder = randomUUID();
  const state = newRecorderState();
  const prom = cfg.prom ?? null;
  const log = cfg.log ?? ((m: string) => console.error(`[collector] ${m}`));
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let lastPrune = 0;

  async function step(name: string, fn: () => Promise<void>) {
    try {
      await fn();
    } catch (e) {
      log(`${name} failed: ${(e as Error).message}`);
    }
  }

  async function tick() {
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
    for (const job of cfg.jobs ?? []) await step(job.name, () => job.run({ db, now, prom }));
    if (now.getTime() - lastPrune > 3600_000) {
      lastPrune = now.getTime();
      await step("retention", async () => {
        const before = new Date(now.getTime() - cfg.retentionDays * 86_400_000);
        await db.gpuMinute.deleteMany({ where: { minuteStart: { lt: before } } });
        await db.hostMinute.deleteMany({ where: { minuteStart: { lt: before } } });
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
      await step("tick", tick);
      schedule();
    }, cfg.intervalS * 1000);
    timer.unref?.();
  }

  if (cfg.autoStart !== false) void step("first tick", tick).then(schedule);
  return {
    holder,
    tick,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
