import "server-only";
import { runAlertJob } from "../alerts/job.ts";
import { runDeliveryJob } from "../notify/job.ts";
import { refreshFleetCacheIfWatched } from "../fleet/fleet-cache.ts";
import { runRecommendationJob } from "../recommendations/job.ts";
import { runLedgerJob } from "../ledger/job.ts";
import { runPolicyJob } from "../policies/job.ts";
import { recoverRepriceRuns } from "../ledger/reprice-run.ts";
import { runWorkTrialJob } from "../work/job.ts";
import { dutyCycled } from "./duty-cycle.ts";
import type { CollectorConfig } from "./loop.ts";

// Alert evaluation may use at most this share of wall time: at 10,000 GPUs its window queries
// take seconds, and running them back to back kept Prometheus saturated.
const ALERT_MAX_SHARE = 0.25;

/** Jobs the leader runs after each collection tick. */
export function serverJobs(): NonNullable<CollectorConfig["jobs"]> {
  const alerts = dutyCycled(runAlertJob, { maxShare: ALERT_MAX_SHARE });
  return [
    // the fleet API's cached snapshot: rebuilt in the background from what this tick stored
    { name: "fleet snapshot", run: async () => refreshFleetCacheIfWatched() },
    { name: "ledger", run: (ctx) => runLedgerJob(ctx) },
    // a re-pricing run that died while staging is abandoned (it never touched the ledger)
    { name: "reprice recovery", run: async (ctx) => void (await recoverRepriceRuns(ctx.db)) },
    // alert rules (idle, budget, health), queueing notifications: every tick while cheap
    { name: "alerts", run: (ctx) => alerts(ctx) },
    // webhook delivery: started in the background, so a slow receiver never holds up a tick
    { name: "notify", run: (ctx) => runDeliveryJob(ctx) },
    // idle-release policies: episodes (dry run and active), warnings, keeps and actions
    { name: "policies", run: async (ctx) => void (await runPolicyJob(ctx)) },
    // trial rentals (issue 28): label trials opened and ended, ended trials reported
    { name: "work trials", run: (ctx) => runWorkTrialJob(ctx) },
    // savings recommendations: once at start, then daily (background)
    { name: "recommendations", run: (ctx) => runRecommendationJob(ctx) },
  ];
}
