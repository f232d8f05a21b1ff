import type { Db } from "../db.ts";
import type { MetricsSource } from "../metrics/source.ts";

// The contract between the scheduler (lib/jobs, the wiring layer) and the features' jobs: a
// feature's job takes a TickContext and imports nothing of the scheduler or the job list.

/** What a job gets on each tick: the store, the tick's time and the one metrics read interface. */
export interface TickContext {
  db: Db;
  now: Date;
  metrics: MetricsSource;
}

/** One job the leader runs after each collection tick. */
export interface TickJob {
  name: string;
  run: (ctx: TickContext) => Promise<void>;
}
