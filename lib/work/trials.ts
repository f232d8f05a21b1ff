import "server-only";
import type { TeamScope } from "@/lib/auth/scope.ts";
import { ConflictError, NotFoundError } from "@/lib/core/errors.ts";
import { parseLabels } from "@/lib/core/labels.ts";
import { DAY_MS, HOUR_MS } from "@/lib/core/time.ts";
import { isUniqueViolation } from "@/lib/core/store-errors.ts";
import { db as defaultDb, type Db } from "@/lib/db.ts";
import type { MetricsSource } from "@/lib/metrics/source.ts";
import { getUnitCosts } from "./get-unit-costs.ts";
import { BASELINE_DAYS, trialReport, type TrialReport } from "./trial-report.ts";
import { byTypeAndModel } from "./unit-cost-math.ts";
import type { TrialDto, TrialInput } from "./trial-schema.ts";

// Trial rentals (issue 28), the only writer of WorkTrial: a host is marked for a window by its
// gpufleet.io/trial=<name> label (open while the label is there) or from its page (a number of
// hours); once the window has ended the report is computed once and kept with the trial.

export const TRIAL_LABEL = "gpufleet.io/trial";

export async function createTrial(
  input: TrialInput & { by: string | null; now: Date; origin: "page" | "demo"; startsAt?: Date },
  scope: TeamScope,
  db: Db = defaultDb,
): Promise<TrialDto> {
  const host = await db.host.findFirst({
    where: { id: input.hostId, ...(scope === null ? {} : { team: { in: [...scope] } }) },
    select: { id: true },
  });
  if (!host) throw new NotFoundError("host");
  const startsAt = input.startsAt ?? input.now;
  try {
    const t = await db.workTrial.create({
      data: {
        hostId: host.id,
        name: input.name,
        startsAt,
        endsAt: new Date(startsAt.getTime() + input.hours * HOUR_MS),
        origin: input.origin,
        createdBy: input.by,
      },
      include: { host: { select: { hostname: true, instanceType: true } } },
    });
    return toDto(t);
  } catch (e) {
    if (isUniqueViolation(e))
      throw new ConflictError(`the host already has a trial named ${input.name}`);
    throw e;
  }
}

/** Opens a trial for each host carrying the label and ends label trials whose label went. */
export async function syncLabelTrials(
  db: Db,
  now: Date,
): Promise<{ opened: number; ended: number }> {
  const [hosts, open] = await Promise.all([
    db.host.findMany({
      where: { labels: { contains: TRIAL_LABEL } },
      select: { id: true, labels: true },
    }),
    db.workTrial.findMany({ where: { origin: "label", endsAt: null } }),
  ]);
  const marked = new Map<string, string>();
  for (const h of hosts) {
    const name = parseLabels(h.labels)[TRIAL_LABEL];
    if (name) marked.set(h.id, name);
  }
  let opened = 0;
  let ended = 0;
  for (const t of open) {
    if (marked.get(t.hostId) === t.name) continue;
    await db.workTrial.updateMany({ where: { id: t.id, endsAt: null }, data: { endsAt: now } });
    ended++;
  }
  for (const [hostId, name] of marked) {
    if (open.some((t) => t.hostId === hostId && t.name === name)) continue;
    const seen = await db.workTrial.findUnique({ where: { hostId_name: { hostId, name } } });
    if (seen) continue; // a trial of that name ran before: its report stands
    try {
      await db.workTrial.create({ data: { hostId, name, startsAt: now, origin: "label" } });
      opened++;
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
    }
  }
  return { opened, ended };
}

/** Computes the report of one trial (whole fleet as the baseline). */
export async function computeTrialReport(
  db: Db,
  metrics: MetricsSource,
  trial: { hostId: string; startsAt: Date; endsAt: Date },
): Promise<TrialReport> {
  const host = await db.host.findUniqueOrThrow({
    where: { id: trial.hostId },
    select: { hostname: true, provider: true, instanceType: true },
  });
  const deps = { client: db, metrics, scope: null };
  const [mine, fleet] = await Promise.all([
    getUnitCosts(
      { from: trial.startsAt, to: trial.endsAt, split: false, hostIds: [trial.hostId] },
      deps,
    ),
    getUnitCosts(
      {
        from: new Date(trial.endsAt.getTime() - BASELINE_DAYS * DAY_MS),
        to: trial.endsAt,
        split: false,
      },
      deps,
    ),
  ]);
  return trialReport({
    host,
    from: trial.startsAt,
    to: trial.endsAt,
    trial: mine.hosts,
    baseline: byTypeAndModel(fleet.hosts.filter((r) => r.hostId !== trial.hostId)),
  });
}

/** Reports every trial whose window has ended and has no report yet. */
export async function reportDueTrials(db: Db, metrics: MetricsSource, now: Date): Promise<number> {
  const due = await db.workTrial.findMany({ where: { endsAt: { lte: now }, report: null } });
  for (const t of due) {
    if (!t.endsAt) continue;
    const report = await computeTrialReport(db, metrics, { ...t, endsAt: t.endsAt });
    await db.workTrial.updateMany({
      where: { id: t.id, report: null },
      data: { report: JSON.stringify(report), reportedAt: now },
    });
  }
  return due.length;
}

type TrialRow = {
  id: string;
  name: string;
  hostId: string;
  startsAt: Date;
  endsAt: Date | null;
  origin: string;
  createdBy: string | null;
  report: string | null;
  reportedAt: Date | null;
  host: { hostname: string; instanceType: string };
};

function toDto(t: TrialRow): TrialDto {
  return {
    id: t.id,
    name: t.name,
    hostId: t.hostId,
    hostname: t.host.hostname,
    instanceType: t.host.instanceType,
    startsAt: t.startsAt.toISOString(),
    endsAt: t.endsAt?.toISOString() ?? null,
    origin: t.origin,
    createdBy: t.createdBy,
    reportedAt: t.reportedAt?.toISOString() ?? null,
    report: t.report === null ? null : (JSON.parse(t.report) as TrialReport),
  };
}

/** Trials of the hosts in scope (one host's when `hostId` is given), newest first. */
export async function listTrials(
  scope: TeamScope,
  hostId?: string,
  db: Db = defaultDb,
): Promise<TrialDto[]> {
  const rows = await db.workTrial.findMany({
    where: {
      ...(hostId ? { hostId } : {}),
      ...(scope === null ? {} : { host: { team: { in: [...scope] } } }),
    },
    include: { host: { select: { hostname: true, instanceType: true } } },
    orderBy: { startsAt: "desc" },
  });
  return rows.map(toDto);
}

/** Finished trials' reports that compared (the recommendation rule reads them). */
export async function comparedTrialReports(
  db: Db,
): Promise<{ trialId: string; hostId: string; name: string; report: TrialReport }[]> {
  const rows = await db.workTrial.findMany({
    where: { report: { not: null } },
    select: { id: true, hostId: true, name: true, report: true },
  });
  return rows.flatMap((r) => {
    const report = JSON.parse(r.report ?? "null") as TrialReport | null;
    return report?.status === "compared"
      ? [{ trialId: r.id, hostId: r.hostId, name: r.name, report }]
      : [];
  });
}
