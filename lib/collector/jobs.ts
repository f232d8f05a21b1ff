import "server-only";
import { runAlertJob } from "../alerts/job.ts";
import { runDeliveryJob } from "../notify/job.ts";
import { runRecommendationJob } from "../recommendations/job.ts";
import { runLedgerJob } from "./ledger-job.ts";
import type { CollectorConfig } from "./loop.ts";

/** Jobs the leader runs after each collection tick. */
export function serverJobs(): NonNullable<CollectorConfig["jobs"]> {
  return [
    { name: "ledger", run: (ctx) => runLedgerJob(ctx) },
    // alert rules: evaluated every tick (idle, budget, health), queueing notifications
    { name: "alerts", run: (ctx) => runAlertJob(ctx) },
    // webhook delivery: started in the background, so a slow receiver never holds up a tick
    { name: "notify", run: (ctx) => runDeliveryJob(ctx) },
    // savings recommendations: once at start, then daily (background)
    { name: "recommendations", run: (ctx) => runRecommendationJob(ctx) },
  ];
}
