import { describeHolder, type Holder } from "../core/holders.ts";
import { MINUTE_MS } from "../core/time.ts";
import type { HostSample } from "../metrics/source.ts";

// A Slurm job's or a Kubernetes pod's run on a host, from the holders of its GPU minutes (issue 24
// attribution, read through MetricsSource.hourSamples in both modes). Pure. The notion of a break
// is the hosts' (./runtime.ts): only what was observed ends a run. A run of (host, kind, ref; a
// pod's ref holds its namespace when it has no uid) starts at the first minute it was seen holding a GPU and ends once the host answered
// RUN_GAP_MINUTES minutes in a row without it; a minute with no sample of the host (the app not
// recording) or a failed scrape says nothing and is no break. A shorter absence (a process
// restarting between steps, a collection that missed it) is tolerated.

/** Consecutive answered minutes without the run that end it. */
export const RUN_GAP_MINUTES = 5;

export type RunKind = "job" | "pod";

/**
 * What identifies a run on one host: its kind and ref. A pod's ref is its uid, else
 * "namespace/name" (lib/core/holders.ts), so the namespace is in it where it tells pods apart; a
 * namespace or user learnt later (the kubelet's list, getent) does not split the run.
 */
export function runId(h: Pick<Holder, "kind" | "ref">): string {
  return `${h.kind}:${h.ref}`;
}

/** "job 4242 (alice)", "pod ml/trainer-0 (1000)": for warnings and the dry-run list. */
export function runLabel(h: Holder): string {
  const what = describeHolder({ ...h, user: null });
  return h.user ? `${what} (${h.user})` : what;
}

export interface HolderRun {
  id: string;
  kind: RunKind;
  /** the holder as last seen (its user may have resolved from a uid meanwhile) */
  holder: Holder;
  /** the first minute it was seen holding a GPU, as far as the samples go */
  start: Date;
  lastSeen: Date;
  /** false once the host answered RUN_GAP_MINUTES minutes in a row without it */
  live: boolean;
  /**
   * whether the samples show where it began: RUN_GAP_MINUTES answered minutes without it before
   * its first sighting. Otherwise it may have begun before the samples (look further back).
   */
  startKnown: boolean;
  /** GPUs it held in its last minute seen: a MIG slice counts its fraction, a shared GPU is split */
  gpus: number;
}

function runKinds(h: Holder): h is Holder & { kind: RunKind } {
  return h.kind === "job" || h.kind === "pod";
}

/** The runs (job, pod) one sample shows holding GPUs, with their share of GPUs. */
export function runsInSample(s: HostSample): Map<string, { holder: Holder; gpus: number }> {
  const out = new Map<string, { holder: Holder; gpus: number }>();
  for (const g of s.gpus) {
    const byId = new Map((g.holders ?? []).map((m) => [runId(m.holder), m.holder]));
    for (const [id, holder] of byId) {
      if (!runKinds(holder)) continue;
      const share = (g.migFraction ?? 1) / byId.size;
      out.set(id, { holder, gpus: (out.get(id)?.gpus ?? 0) + share });
    }
  }
  return out;
}

/** One host's runs over its samples (any order), earliest start first. */
export function detectRuns(samples: readonly HostSample[], gap = RUN_GAP_MINUTES): HolderRun[] {
  const answered = samples.filter((s) => s.up).sort((a, b) => a.t.getTime() - b.t.getTime());
  const runs: HolderRun[] = [];
  const live = new Map<string, HolderRun>();
  /** index (among answered minutes) of each id's latest sighting */
  const lastIdx = new Map<string, number>();
  answered.forEach((s, i) => {
    const seen = runsInSample(s);
    for (const [id, r] of live) {
      if (!seen.has(id) && i - (lastIdx.get(id) ?? i) >= gap) {
        r.live = false;
        live.delete(id);
      }
    }
    for (const [id, r] of seen) {
      const cur = live.get(id);
      if (cur) {
        cur.lastSeen = s.t;
        cur.holder = r.holder;
        cur.gpus = r.gpus;
      } else {
        const before = i - (lastIdx.get(id) ?? -1) - 1;
        const run: HolderRun = {
          id,
          kind: r.holder.kind as RunKind,
          holder: r.holder,
          start: s.t,
          lastSeen: s.t,
          live: true,
          startKnown: before >= gap,
          gpus: r.gpus,
        };
        live.set(id, run);
        runs.push(run);
      }
      lastIdx.set(id, i);
    }
  });
  return runs;
}

/** Where a backward search for a run's start stands (carried from one older chunk to the next). */
export interface StartSearch {
  /** the earliest minute it was seen so far */
  earliest: Date;
  /** answered minutes in a row without it, counted backwards from `earliest` */
  absent: number;
  /** true once RUN_GAP_MINUTES answered minutes without it were found before `earliest` */
  found: boolean;
}

/**
 * Walks older samples of the run's host (any order; all before `s.earliest`) backwards, extending
 * the run to earlier sightings until a break shows where it began.
 */
export function searchStart(
  samples: readonly HostSample[],
  id: string,
  s: StartSearch,
  gap = RUN_GAP_MINUTES,
): StartSearch {
  if (s.found) return s;
  const older = samples
    .filter((x) => x.up && x.t < s.earliest)
    .sort((a, b) => b.t.getTime() - a.t.getTime());
  let { earliest, absent } = s;
  for (const x of older) {
    if (runsInSample(x).has(id)) {
      earliest = x.t;
      absent = 0;
    } else if (++absent >= gap) return { earliest, absent, found: true };
  }
  return { earliest, absent, found: false };
}

/** Whole minutes of a span, for messages ("running 26 h"). */
export function runHours(start: Date, now: Date): number {
  return Math.floor((now.getTime() - start.getTime()) / (60 * MINUTE_MS));
}
