import "server-only";
import { HOUR_MS } from "../core/time.ts";
import { computeHostHour, ledgerWindow, toUsageHourData } from "./ledger-math.ts";
import type { LedgerRow } from "./ledger-types.ts";
import { holderShares, type HolderShare } from "./holder-split.ts";
import { rebuildUsageDays, refreshUsageDays } from "./usage-days.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { Db } from "../db.ts";
import { loadPriceRows } from "../pricing/catalogue-db.ts";
import { lookupPrice } from "../pricing/lookup.ts";
import type { SamplesByHost } from "../metrics/source.ts";
import type { TickContext } from "../tick/context.ts";

// Writes the hourly ledger for every closed hour not yet written, oldest first. A host's hour is
// written in one transaction and the unique key (hour, host, gpu) makes a second write impossible,
// so a restart or a second replica can never double it. Missed hours are backfilled while the
// source still holds their samples (the store's retention, or Prometheus's). A read that fails
// (Prometheus unreachable, timing out, a 5xx) throws before anything is written: no empty hour, and
// the mark stays, so the hour is written from the backend's history once it answers
// (fault/prometheus-refill.fault.test.ts).

const STATE = "ledger.lastHour";
const DAYS_STATE = "ledger.usageDaysBuilt";
/** A host-hour's write (rows, holders, its day's roll-up) is small, but may wait for the lock. */
const HOST_HOUR_TX = { timeout: 60_000, maxWait: 60_000 };
const SAMPLE_INTERVAL_S = 60;

export function floorHour(t: number): number {
  return t - (t % HOUR_MS);
}

/** One host's hour: its UsageHour rows and who held its GPUs (UsageHourHolder rows). */
export interface HostHour {
  rows: LedgerRow[];
  holders: HolderShare[];
}

/** Computes one hour's rows for every host that has samples, without writing them. */
export async function computeLedgerHour(
  db: Db,
  hourStart: Date,
  samples: SamplesByHost,
): Promise<Map<string, HostHour>> {
  const [hosts, prices] = await Promise.all([db.host.findMany(), loadPriceRows(db)]);
  const out = new Map<string, HostHour>();
  for (const host of hosts) {
    const hostSamples = samples.get(host.id);
    if (!hostSamples || hostSamples.length === 0) continue;
    const price = lookupPrice(prices, { ...host, at: hourStart });
    const rows = computeHostHour({
      hourStart,
      host,
      price,
      samples: hostSamples,
      intervalSeconds: SAMPLE_INTERVAL_S,
    });
    if (rows.length === 0) continue;
    const holders = holderShares(rows, hostSamples, hourStart, SAMPLE_INTERVAL_S);
    out.set(host.id, { rows, holders });
  }
  return out;
}

export async function loadHourSamples(ctx: TickContext, hourStart: Date): Promise<SamplesByHost> {
  const { from, to } = ledgerWindow(hourStart, SAMPLE_INTERVAL_S);
  return ctx.metrics.hourSamples(from, to, SAMPLE_INTERVAL_S);
}

/** Writes rows for hosts that have none for that hour yet; returns how many hosts were written. */
export async function writeLedgerHour(
  db: Db,
  hourStart: Date,
  rows: Map<string, HostHour>,
  source: string,
): Promise<number> {
  const existing = new Set(
    (
      await db.usageHour.findMany({
        where: { hourStart, gpuKey: "host" },
        select: { hostId: true },
      })
    ).map((r) => r.hostId),
  );
  const hourEnd = new Date(hourStart.getTime() + HOUR_MS);
  let written = 0;
  for (const [hostId, hostHour] of rows) {
    if (existing.has(hostId)) continue;
    try {
      // one transaction: an hour's holders and its day's roll-up are never written without its
      // rows, nor twice
      await db.$transaction(async (tx) => {
        await tx.usageHour.createMany({
          data: hostHour.rows.map((r) => toUsageHourData(r, hostId, source)),
        });
        await tx.usageHourHolder.createMany({ data: holderRowsOf(hostHour, hostId) });
        await refreshUsageDays(tx, { from: hourStart, to: hourEnd, hostId });
      }, HOST_HOUR_TX);
      written++;
    } catch (e) {
      // A unique violation means another writer got there first: the hour stays written once.
      if (!String((e as Error).message).includes("Unique constraint")) throw e;
    }
  }
  return written;
}

/** The UsageHourHolder rows of one host's hour. */
export function holderRowsOf(
  hour: HostHour,
  hostId: string,
): Prisma.UsageHourHolderCreateManyInput[] {
  const host = hour.rows.find((r) => r.kind === "host") ?? hour.rows[0];
  if (!host) return [];
  return hour.holders.map((h) => ({
    hourStart: host.hourStart,
    hostId,
    gpuKey: h.gpuKey,
    holderKey: h.holderKey,
    user: h.holder.user,
    kind: h.holder.kind,
    ref: h.holder.ref,
    name: h.holder.name,
    namespace: h.holder.namespace,
    account: h.holder.account,
    team: host.team,
    sharePpm: h.sharePpm,
    memByteSeconds: h.memByteSeconds,
    costMicros: h.costMicros,
    idleSeconds: h.idleSeconds,
    idleCostMicros: h.idleCostMicros,
    currency: host.currency,
  }));
}

async function firstHourWithData(ctx: TickContext): Promise<number | null> {
  const first = await ctx.metrics.ledgerStart(ctx.now);
  return first ? floorHour(first.getTime()) : null;
}

/**
 * A ledger written before the day roll-up existed (issue 27) is rolled up once, on the job's first
 * pass after the upgrade; the mark makes later passes a single read.
 */
async function ensureUsageDays(db: Db): Promise<void> {
  if (await db.jobState.findUnique({ where: { name: DAYS_STATE } })) return;
  const rows = await rebuildUsageDays(db);
  await db.jobState.upsert({
    where: { name: DAYS_STATE },
    create: { name: DAYS_STATE, value: String(rows) },
    update: { value: String(rows) },
  });
}

/** The collector job: catches up at most `maxHours` closed hours per tick. */
export async function runLedgerJob(ctx: TickContext, maxHours = 6): Promise<void> {
  await ensureUsageDays(ctx.db);
  const state = await ctx.db.jobState.findUnique({ where: { name: STATE } });
  const next = state ? Date.parse(state.value) + HOUR_MS : await firstHourWithData(ctx);
  if (next === null || Number.isNaN(next)) return;
  const lastClosed = floorHour(ctx.now.getTime()) - HOUR_MS;
  for (let h = next, n = 0; h <= lastClosed && n < maxHours; h += HOUR_MS, n++) {
    const hourStart = new Date(h);
    const samples = await loadHourSamples(ctx, hourStart);
    const rows = await computeLedgerHour(ctx.db, hourStart, samples);
    await writeLedgerHour(ctx.db, hourStart, rows, ctx.metrics.mode);
    await ctx.db.jobState.upsert({
      where: { name: STATE },
      create: { name: STATE, value: hourStart.toISOString() },
      update: { value: hourStart.toISOString() },
    });
  }
}
