// The simulator's holders: each simulated host is one kind of GPU host, and its processes get
// the /proc/<pid>/{status,cgroup,stat} files such a host would have. The exporter reads them
// with the same Attributor as a real host (exporter/holders/), from memory, or from a directory
// that writeProcTree() fills (tests, the benchmark).
//   shared      an 8-GPU box shared by alice, bob and carol: login sessions and their Docker
//               containers (host 0, and every host whose id is 0 mod 4)
//   kubernetes  a node running pods under containerd (systemd driver, cgroup v2)
//   slurm       a Slurm node (cgroup v2, slurmstepd.scope) with dave's and erin's jobs
//   docker      a host running root's Docker containers

import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { hash } from "./rand.ts";
import type { SimHostSpec } from "./types.ts";

export type SimHostKind = "shared" | "kubernetes" | "slurm" | "docker";

/** The simulated hosts' user database (what getent would answer). */
export const SIM_USERS: ReadonlyMap<number, string> = new Map([
  [0, "root"],
  [1001, "alice"],
  [1002, "bob"],
  [1003, "carol"],
  [2001, "dave"],
  [2002, "erin"],
]);
/** pods run as a uid the host does not know: the holder shows it as a number */
const POD_UID = 1000;
const KINDS: SimHostKind[] = ["shared", "kubernetes", "slurm", "docker"];

export function simHostKind(spec: Pick<SimHostSpec, "id">): SimHostKind {
  return KINDS[spec.id % KINDS.length] ?? "shared";
}

function hex(n: number, len: number, salt: number): string {
  let out = "";
  for (let i = 0; out.length < len; i++) out += hash(n, salt, i).toString(16).padStart(8, "0");
  return out.slice(0, len);
}

function uuid(n: number): string {
  const h = hex(n, 32, 7);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

interface SimHolder {
  uid: number;
  cgroup: string;
}

/** A job spans consecutive pids (one per GPU): group them so a job keeps one holder. */
function jobKey(pid: number): number {
  return Math.floor(pid / 16);
}

function holderFor(kind: SimHostKind, hostKey: number, pid: number): SimHolder {
  const job = jobKey(pid);
  switch (kind) {
    case "shared": {
      const uid = 1001 + (pid % 3);
      if (pid % 2 === 0) {
        return { uid, cgroup: `0::/system.slice/docker-${hex(hostKey, 64, pid)}.scope` };
      }
      return { uid, cgroup: `0::/user.slice/user-${uid}.slice/session-${(pid % 7) + 1}.scope` };
    }
    case "kubernetes": {
      const pod = uuid(hash(hostKey, job)).replace(/-/g, "_");
      return {
        uid: POD_UID,
        cgroup:
          "0::/kubepods.slice/kubepods-burstable.slice/" +
          `kubepods-burstable-pod${pod}.slice/cri-containerd-${hex(hostKey, 64, job)}.scope`,
      };
    }
    case "slurm": {
      const id = 100000 + (hash(hostKey, job) % 900000);
      return {
        uid: 2001 + (job % 2),
        cgroup: `0::/system.slice/slurmstepd.scope/job_${id}/step_0/user/task_0`,
      };
    }
    case "docker":
      return { uid: 0, cgroup: `0::/system.slice/docker-${hex(hostKey, 64, job)}.scope` };
  }
}

function comm(processName: string): string {
  return (processName.split("/").pop() ?? "python").slice(0, 15);
}

/** One process's files, as the kernel formats them (only the fields the exporter reads vary). */
export function simProcFiles(
  kind: SimHostKind,
  hostKey: number,
  pid: number,
  processName: string,
): Record<"status" | "cgroup" | "stat", string> {
  const h = holderFor(kind, hostKey, pid);
  const name = comm(processName);
  const ids = `${h.uid}\t${h.uid}\t${h.uid}\t${h.uid}`;
  const start = 1000 + (hash(hostKey, pid) % 10_000_000);
  return {
    status:
      `Name:\t${name}\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t${pid}\nNgid:\t0\n` +
      `Pid:\t${pid}\nPPid:\t1\nTracerPid:\t0\nUid:\t${ids}\nGid:\t${ids}\n`,
    cgroup: `${h.cgroup}\n`,
    stat:
      `${pid} (${name}) S 1 ${pid} ${pid} 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 ${start} ` +
      "0 0 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n",
  };
}

/**
 * Make `tree` ("<pid>/<file>" → text) hold exactly these processes' files: entries of processes
 * still running are kept as they are (a real /proc does not change either), gone ones dropped.
 */
export function fillProcTree(
  tree: Map<string, string>,
  spec: SimHostSpec,
  hostKey: number,
  processes: { pid: number; processName: string }[],
): void {
  const live = new Set(processes.map((p) => p.pid));
  for (const key of tree.keys()) {
    if (!live.has(Number(key.slice(0, key.indexOf("/"))))) tree.delete(key);
  }
  const kind = simHostKind(spec);
  for (const p of processes) {
    if (tree.has(`${p.pid}/stat`)) continue;
    const files = simProcFiles(kind, hostKey, p.pid, p.processName);
    tree.set(`${p.pid}/status`, files.status);
    tree.set(`${p.pid}/cgroup`, files.cgroup);
    tree.set(`${p.pid}/stat`, files.stat);
  }
}

/** Write a tree as a /proc directory (tests and the benchmark read it through the fs reader). */
export async function writeProcTree(dir: string, tree: ReadonlyMap<string, string>): Promise<void> {
  for (const [key, text] of tree) {
    const file = join(dir, key);
    await mkdir(join(file, ".."), { recursive: true });
    await writeFile(file, text);
  }
}
