// Trial rentals become advice (issue 28): a finished trial whose measured cost per unit of work
// beats a type already running the same model recommends moving that type's hosts, with the
// trial's report as the evidence. Pure; the reports come from lib/work/trials.ts.
import type { TrialReport } from "../work/trial-report.ts";
import { HOURS_PER_MONTH } from "../work/trial-report.ts";
import type { Candidate } from "./types.ts";

export const TRIAL_CONVENTION =
  "monthly saving = the other type's monthly work (units per host-hour × 730 h × its hosts) at its measured cost per unit, less the same work at the trial's measured cost per unit";

export function trialCandidates(
  reports: readonly { trialId: string; hostId: string; name: string; report: TrialReport }[],
): Candidate[] {
  return reports.flatMap(({ trialId, hostId, name, report }) => {
    const best = report.others[0];
    if (report.status !== "compared" || !best || report.trial.perMicros === null) return [];
    const saving = BigInt(best.monthlySavingMicros);
    if (saving <= 0n) return [];
    return [
      {
        kind: "trial_move" as const,
        fingerprint: `trial_move:${trialId}:${best.provider}:${best.instanceType}`,
        hostId,
        gpuUuid: null,
        title: `Move ${report.model} from ${best.instanceType} to ${report.instanceType} (trial ${name})`,
        details: report.summary,
        evidence: {
          from: report.from,
          to: report.to,
          metrics: {
            model: report.model,
            unit: report.unit,
            per: report.per,
            trialInstanceType: report.instanceType,
            trialHours: report.trial.hours,
            trialUnits: report.trial.units,
            trialPerMicros: report.trial.perMicros,
            otherInstanceType: best.instanceType,
            otherHosts: best.hosts,
            otherHours: best.hours,
            otherPerMicros: best.perMicros,
          },
          series: [],
          current: null,
          proposed: null,
          hourlySavingMicros: (saving / BigInt(HOURS_PER_MONTH)).toString(),
          convention: TRIAL_CONVENTION,
          caveat: `measured on one ${report.instanceType} host for ${report.trial.hours} h against ${best.hours} host-hours of ${best.instanceType}; a trial's traffic may differ from the fleet's`,
        },
        monthlySavingMicros: saving,
      },
    ];
  });
}
