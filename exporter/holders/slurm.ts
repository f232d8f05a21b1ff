// A Slurm job's user and account from `scontrol show job <id> -o` (one line of Key=Value
// pairs), where scontrol exists (--slurm.scontrol). Spawned at most once per job per TTL, in
// the background (AsyncCache); a job scontrol does not know is cached as absent.

import { execFile } from "node:child_process";
import { AsyncCache } from "./async-cache.ts";

export interface SlurmJob {
  user?: string;
  account?: string;
}

/** "... UserId=alice(1001) GroupId=... Account=physics ..." → { user, account }. */
export function parseScontrolJob(text: string): SlurmJob | null {
  const user = /(?:^|\s)UserId=([^\s(]+)/.exec(text)?.[1];
  const account = /(?:^|\s)Account=(\S+)/.exec(text)?.[1];
  if (user === undefined && account === undefined) return null;
  const job: SlurmJob = {};
  if (user) job.user = user;
  if (account && account !== "(null)") job.account = account;
  return job;
}

export function scontrolLookup(
  path: string,
  timeoutMs: number,
): (id: string) => Promise<SlurmJob | null> {
  return (id) =>
    new Promise((resolve, reject) => {
      if (!/^\d+(_\d+)?$/.test(id)) {
        resolve(null);
        return;
      }
      execFile(
        path,
        ["show", "job", id, "-o"],
        { timeout: timeoutMs, maxBuffer: 256 * 1024 },
        (err, stdout) => {
          if (err) {
            // "slurm_load_jobs error: Invalid job id specified" exits 1: the job is gone
            if (typeof (err as { code?: unknown }).code === "number") resolve(null);
            else reject(err);
            return;
          }
          resolve(parseScontrolJob(stdout));
        },
      );
    });
}

export class SlurmJobs {
  readonly cache: AsyncCache<string, SlurmJob | null>;

  constructor(opts: {
    path: string;
    timeoutMs: number;
    onError?: (id: string, err: unknown) => void;
  }) {
    this.cache = new AsyncCache({
      lookup: scontrolLookup(opts.path, opts.timeoutMs),
      max: 1024,
      ttlMs: 600_000,
      errorTtlMs: 60_000,
      concurrency: 1,
      onError: opts.onError,
    });
  }

  job(id: string): SlurmJob | undefined {
    return this.cache.get(id) ?? undefined;
  }

  settled(): Promise<void> {
    return this.cache.settled();
  }
}
