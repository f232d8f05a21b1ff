import "server-only";
import { LIVE_HOSTS } from "../ingest/host-state.ts";
import { isUniqueViolation } from "../core/store-errors.ts";
import type { Db } from "../db.ts";
import { parseLabels } from "../core/labels.ts";
import { loadPriceRows } from "../pricing/catalogue-db.ts";
import { pricesInUsdAt } from "../pricing/convert-rows.ts";
import type { RecomputeResult } from "../zod/schemas/recommendation.ts";
import { recommendForHost } from "./compute.ts";
import { RECO_DEFAULTS, type Candidate, type RecoOptions } from "./types.ts";
import { HOUR_MS } from "../core/time.ts";
import type { MetricsSource } from "../metrics/source.ts";
import type { HourWindow } from "./types.ts";
import { comparedTrialReports } from "../work/trials.ts";
import { trialCandidates } from "./rule-trial.ts";

// Recomputes every host's recommendations from the ledger. Open ones are refreshed or removed
// when they no longer apply; dismissed, accepted and (still) snoozed ones are left alone, so a
// dismissed recommendation is never recreated. An expired snooze reopens with fresh figures.

export const LAST_RUN = "recommendations.lastRun";
const BATCH = 50;

/** Kinds that need the metrics source: without one they are neither produced nor removed. */
const METRICS_KINDS: ReadonlySet<string> = new Set(["busy_inefficient"]);

/** The window's closed hours (up to the hour `now` is in), each read from the metrics source. */
export async function loadHourWindows(
  metrics: Pick<MetricsSource, "gpuWindow">,
  now: Date,
  o: RecoOptions,
): Promise<HourWindow[]> {
  const end = now.getTime() - (now.getTime() % HOUR_MS);
  const out: HourWindow[] = [];
  for (let t = end - o.windowDays * 24 * HOUR_MS; t < end; t += HOUR_MS) {
    const stats = await metrics.gpuWindow(new Date(t), new Date(t + HOUR_MS));
    out.push({ hourStart: new Date(t), stats });
  }
  return out;
}

export async function recomputeRecommendations(
  db: Db,
  now: Date = new Date(),
  o: RecoOptions = RECO_DEFAULTS,
  /** the metrics source for "busy but inefficient" (hourly GPU windows); absent: skipped */
  metrics?: Pick<MetricsSource, "gpuWindow">,
): Promise<RecomputeResult> {
  const result: RecomputeResult = { hosts: 0, created: 0, updated: 0, removed: 0, kept: 0 };
  const [hosts, prices, existing] = await Promise.all([
    db.host.findMany({ where: LIVE_HOSTS, include: { gpus: true }, orderBy: { hostname: "asc" } }),
    // prices kept in CNY are converted once, at the rate in force now (lib/pricing/convert-rows.ts)
    loadPriceRows(db).then((rows) => pricesInUsdAt(rows, now)),
    db.recommendation.findMany(),
  ]);
  const since = new Date(now.getTime() - Math.max(o.reservedWindowDays, o.windowDays) * 86_400_000);
  const windows = metrics ? await loadHourWindows(metrics, now, o) : undefined;
  const candidates: Candidate[] = [];
  for (let i = 0; i < hosts.length; i += BATCH) {
    const batch = hosts.slice(i, i + BATCH);
    const rows = await db.usageHour.findMany({
      where: { hostId: { in: batch.map((h) => h.id) }, hourStart: { gte: since, lt: now } },
      select: {
        hostId: true,
        hourStart: true,
        gpuKey: true,
        parentKey: true,
        upSeconds: true,
        utilMean: true,
        utilP95: true,
        memPeakBytes: true,
        memTotalBytes: true,
        idleSeconds: true,
        idleHeldSeconds: true,
        costMicros: true,
        idleCostMicros: true,
      },
    });
    for (const h of batch) {
      result.hosts++;
      candidates.push(
        ...recommendForHost(
          {
            host: { ...h, labels: parseLabels(h.labels), gpus: h.gpus },
            rows: rows.filter((r) => r.hostId === h.id),
            prices,
            now,
            windows,
          },
          o,
        ),
      );
    }
  }
  const live = new Set(hosts.map((h) => h.id));
  // finished trial rentals that beat a type running the same model (issue 28)
  candidates.push(
    ...trialCandidates((await comparedTrialReports(db)).filter((t) => live.has(t.hostId))),
  );
  const byFp = new Map(existing.map((r) => [r.fingerprint, r]));
  const produced = new Set<string>();
  for (const c of candidates) {
    produced.add(c.fingerprint);
    const data = {
      kind: c.kind,
      hostId: c.hostId,
      gpuUuid: c.gpuUuid,
      title: c.title,
      details: c.details,
      evidence: JSON.stringify(c.evidence),
      monthlySavingMicros: c.monthlySavingMicros,
    };
    const prev = byFp.get(c.fingerprint);
    if (prev && (prev.state === "dismissed" || prev.state === "accepted")) {
      result.kept++;
      continue;
    }
    if (prev && prev.state === "snoozed" && prev.snoozedUntil && prev.snoozedUntil > now) {
      result.kept++;
      continue;
    }
    if (prev) {
      await db.recommendation.updateMany({
        where: { id: prev.id, state: { in: ["open", "snoozed"] } },
        data: { ...data, state: "open", snoozedUntil: null },
      });
      result.updated++;
      continue;
    }
    try {
      await db.recommendation.create({ data: { ...data, fingerprint: c.fingerprint } });
      result.created++;
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      await db.recommendation.updateMany({
        where: { fingerprint: c.fingerprint, state: "open" },
        data,
      });
      result.updated++;
    }
  }
  for (const r of existing) {
    if (produced.has(r.fingerprint)) continue;
    if (!metrics && METRICS_KINDS.has(r.kind)) continue; // not computed this run
    const stale = r.state === "open" || (r.state === "snoozed" && (r.snoozedUntil ?? now) <= now);
    if (!stale) continue;
    const done = await db.recommendation.deleteMany({ where: { id: r.id, state: r.state } });
    result.removed += done.count;
  }
  await db.jobState.upsert({
    where: { name: LAST_RUN },
    create: { name: LAST_RUN, value: now.toISOString() },
    update: { value: now.toISOString() },
  });
  return result;
}
