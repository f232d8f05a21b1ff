// Polls the provider's spot interruption notice every --host.interruption.poll-interval (AWS
// recommends 5 s), only while the host is spot, and keeps the answer in the host's state for
// gpu_host_interruption_pending / _time_seconds. A failed poll keeps the last answer and turns
// gpu_exporter_collector_success{collector="host_interruption"} to 0. A notice is published to
// the served exposition as soon as it is polled (onChange), not at the next collection tick.

import { timed } from "../collect.ts";
import type { Logger } from "../log.ts";
import type { HostState } from "../state.ts";
import type { ProviderClient } from "./types.ts";

export const INTERRUPTION_COLLECTOR = "host_interruption";

export interface PollerOptions {
  client: ProviderClient;
  state: HostState;
  intervalMs: number;
  log: Logger;
  now?: () => number;
  /** after each poll and after stop: publish the exposition now rather than at the next tick */
  onChange?: () => Promise<void>;
}

export class InterruptionPoller {
  private timer?: NodeJS.Timeout;
  private polling?: Promise<void>;
  private firstSeen?: number;
  private stopped = false;

  constructor(private readonly opts: PollerOptions) {
    opts.state.interruption = { pending: false, timeSeconds: 0 };
  }

  start(): void {
    const loop = () => {
      this.timer = setTimeout(() => {
        void this.poll().finally(() => {
          if (!this.stopped) loop();
        });
      }, this.opts.intervalMs);
      this.timer.unref();
    };
    loop();
  }

  /** One poll now (the schedule runs too); concurrent calls share the request. */
  poll(): Promise<void> {
    this.polling ??= this.pollOnce()
      .then(() => this.opts.onChange?.())
      .finally(() => (this.polling = undefined));
    return this.polling;
  }

  private async pollOnce(): Promise<void> {
    const { client, state, log } = this.opts;
    const now = this.opts.now ?? Date.now;
    await timed(state, INTERRUPTION_COLLECTOR, log, async () => {
      const notice = await client.notice();
      if (this.stopped) return;
      if (!notice.pending) {
        if (state.interruption?.pending) log.log("info", "interruption notice withdrawn");
        this.firstSeen = undefined;
        state.interruption = { pending: false, timeSeconds: 0 };
        return;
      }
      this.firstSeen ??= Math.floor(now() / 1000);
      const timeSeconds = notice.timeSeconds ?? this.firstSeen;
      if (!state.interruption?.pending) {
        log.log("warn", "spot interruption announced", {
          provider: client.provider,
          at: new Date(timeSeconds * 1000).toISOString(),
        });
      }
      state.interruption = { pending: true, timeSeconds };
    });
  }

  /** Stop polling and drop the metrics (the host is no longer spot, or the exporter stops). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.polling;
    this.opts.state.interruption = undefined;
    this.opts.state.collectors.delete(INTERRUPTION_COLLECTOR);
    await this.opts.onChange?.();
  }
}
