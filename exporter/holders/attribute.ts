// Attribution at collection time (never at scrape time): each compute process nvidia-smi
// reports gets a Holder from /proc/<pid>/{stat,status,cgroup}, the user database and the
// optional enrichment sources. Per process, only the stat file is read again each collection
// (to notice a reused pid); owner and cgroup are read once per process. The cache holds only
// the pids of the last collection, so it is as bounded as the process list itself.

import type { ProcessReading } from "../readings.ts";
import type { DockerNames } from "./docker.ts";
import type { Holder } from "./holder.ts";
import type { KubeletNames } from "./kubelet.ts";
import { readFacts, readStartTime, type ProcFacts, type ProcReader } from "./procfs.ts";
import type { SlurmJobs } from "./slurm.ts";
import { UNKNOWN_USER, type UserNames } from "./users.ts";

export interface AttributorOptions {
  proc: ProcReader;
  users: UserNames;
  docker?: DockerNames;
  kubelet?: KubeletNames;
  slurm?: SlurmJobs;
}

export class Attributor {
  private readonly facts = new Map<number, ProcFacts>();

  constructor(private readonly opts: AttributorOptions) {}

  /** Sets `holder` on every process; never throws (an unreadable process is "unknown"). */
  async attribute(procs: ProcessReading[]): Promise<void> {
    const pids = [...new Set(procs.map((p) => p.pid))];
    const found = await Promise.all(pids.map((pid) => this.factsFor(pid)));
    const byPid = new Map<number, ProcFacts | undefined>();
    pids.forEach((pid, i) => byPid.set(pid, found[i]));
    for (const pid of this.facts.keys()) if (!byPid.has(pid)) this.facts.delete(pid);
    const holders = new Map<number, Holder>();
    for (const p of procs) {
      let h = holders.get(p.pid);
      if (!h) {
        h = this.holder(byPid.get(p.pid));
        holders.set(p.pid, h);
      }
      p.holder = h;
    }
  }

  /** Known processes (tests, benchmarks). */
  get cached(): number {
    return this.facts.size;
  }

  private async factsFor(pid: number): Promise<ProcFacts | undefined> {
    try {
      const start = await readStartTime(this.opts.proc, pid);
      if (start === undefined) {
        this.facts.delete(pid);
        return undefined;
      }
      const known = this.facts.get(pid);
      if (known && known.startTime === start) return known;
      const facts = await readFacts(this.opts.proc, pid, start);
      this.facts.set(pid, facts);
      return facts;
    } catch {
      return undefined;
    }
  }

  private holder(facts: ProcFacts | undefined): Holder {
    if (!facts) return { user: UNKNOWN_USER };
    const { docker, kubelet, slurm, users } = this.opts;
    const c = facts.cgroup;
    const h: Holder = { user: users.label(facts.uid), ...c };
    if (c.containerId) {
      const name = docker?.name(c.containerId);
      if (name) h.containerName = name;
      const inPod = kubelet?.container(c.containerId);
      if (inPod) h.podContainer = inPod;
    }
    if (c.podUid && kubelet) {
      const pod = kubelet.pod(c.podUid);
      if (pod) {
        h.podNamespace = pod.namespace;
        h.podName = pod.name;
      }
    }
    if (c.slurmJobId && slurm) {
      const job = slurm.job(c.slurmJobId);
      if (job?.user) h.slurmUser = job.user;
      if (job?.account) h.slurmAccount = job.account;
    }
    return h;
  }
}
