import "server-only";
import type { TickContext } from "../tick/context.ts";
import { resendOpenAlerts } from "./alertmanager-resend.ts";
import { backfillAlertmanagers } from "./alertmanager-backfill.ts";
import { DEFAULT_DELIVERY, deliverDue, type DeliveryOptions } from "./deliver.ts";

// The collector's delivery job starts a delivery run and returns at once: webhooks that hang
// (bounded by the per-request timeout) never hold up the next collection tick. One run at a time.
// Before the queue, every open alert in an Alertmanager channel's scope that the channel was not
// told of is queued for it; after the queue, open alerts are re-sent to Alertmanagers whose
// interval is up (every 60 s).

let running: Promise<void> | null = null;

export function runDeliveryJob(
  ctx: TickContext,
  options: Partial<DeliveryOptions> = {},
  log: (m: string) => void = (m) => console.error(`[notify] ${m}`),
): Promise<void> {
  if (running) return Promise.resolve();
  const clock = options.clock ?? DEFAULT_DELIVERY.clock;
  running = backfillAlertmanagers(ctx.db, clock())
    .then(() => deliverDue(ctx.db, options))
    .then(async (r) => {
      if (r.failed > 0) log(`${r.failed} notification(s) gave up after the last retry`);
      const again = await resendOpenAlerts(ctx.db, options);
      if (again.failed > 0)
        log(`re-sending open alerts failed for ${again.failed} Alertmanager(s)`);
    })
    .catch((e: unknown) => log(`delivery run failed: ${(e as Error).message}`))
    .finally(() => {
      running = null;
    });
  return Promise.resolve();
}

/** For tests and shutdown: the run in flight, if any. */
export function deliveryInFlight(): Promise<void> | null {
  return running;
}
