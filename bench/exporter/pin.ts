// CPU pinning for the load phase: with two or more CPUs and util-linux's taskset, each server under
// test (ours and both node_exporters alike, all their threads) runs on every CPU but the last and
// wrk on the last, so the load generator does not take turns with the server on its core (on 2
// cores at load average ~4, our p99 went from 7.1 to 4.8 ms). Other work on the machine is not
// pinned and still shares both.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cpus } from "node:os";

export const TASKSET = "/usr/bin/taskset";

export interface Pinning {
  /** CPU list for the servers under test, taskset syntax */
  server: string;
  /** CPU list for the load generator */
  load: string;
}

/** The CPUs to pin to, or null where there is one CPU or no taskset. */
export function pinning(
  cpuCount = cpus().length,
  haveTaskset = existsSync(TASKSET),
): Pinning | null {
  if (cpuCount < 2 || !haveTaskset) return null;
  const last = cpuCount - 1;
  return { server: last === 1 ? "0" : `0-${last - 1}`, load: String(last) };
}

/** Pins a running process, every thread of it, to `cpuList`; throws with taskset's error. */
export function pinProcess(pid: number, cpuList: string): void {
  execFileSync(TASKSET, ["-a", "-p", "-c", cpuList, String(pid)], { stdio: "pipe" });
}

export function describePinning(p: Pinning | null): string {
  return p
    ? `servers pinned to CPU ${p.server}, the load generator to CPU ${p.load} (taskset)`
    : "no CPU pinning (one CPU or no taskset)";
}
