// Reading a process's owner, start time and cgroup under --path.procfs (default /proc, as
// node_exporter; the DaemonSet and the container image mount the host's /proc there). A process
// in another PID namespace, or one we may not read, gives undefined: it is kept, as "unknown".

import { readFile } from "node:fs";
import { join } from "node:path";
import { parseCgroupFile, type CgroupInfo } from "./cgroup.ts";

export type ProcFile = "status" | "cgroup" | "stat";

/** Where /proc/<pid>/<file> comes from: the host's procfs, or a generated tree (simulator). */
export interface ProcReader {
  read(pid: number, file: ProcFile): Promise<string>;
}

/**
 * Reads off the event loop (a /proc/<pid>/status read can wait on the process's memory lock, so
 * never a synchronous read that would hold up scrapes). The callback form: for files this small
 * it costs about half what fs/promises does (bench/exporter-holders.ts).
 */
export function fsProcReader(root: string): ProcReader {
  return {
    read: (pid, file) =>
      new Promise((resolve, reject) =>
        readFile(join(root, String(pid), file), "utf8", (err, text) =>
          err ? reject(err) : resolve(text),
        ),
      ),
  };
}

/** A tree kept in memory, keyed "<pid>/<file>" (the simulator's hosts). */
export function mapProcReader(tree: ReadonlyMap<string, string>): ProcReader {
  return {
    read(pid, file) {
      const text = tree.get(`${pid}/${file}`);
      if (text === undefined) {
        const err = Object.assign(new Error(`no /proc/${pid}/${file}`), { code: "ENOENT" });
        return Promise.reject(err);
      }
      return Promise.resolve(text);
    },
  };
}

/** The real uid: the first number of the status file's "Uid:" line. */
export function parseStatusUid(status: string): number | undefined {
  const m = /^Uid:\s+(\d+)/m.exec(status);
  if (!m?.[1]) return undefined;
  const uid = Number(m[1]);
  return Number.isSafeInteger(uid) ? uid : undefined;
}

/**
 * Field 22 of /proc/<pid>/stat (start time in clock ticks after boot): with the pid, it names
 * one process even when the kernel reuses the pid. The command may hold spaces and parentheses,
 * so fields are counted after the last ")".
 */
export function parseStatStartTime(stat: string): string | undefined {
  const close = stat.lastIndexOf(")");
  if (close < 0) return undefined;
  const fields = stat
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const start = fields[19]; // fields[0] is field 3 (state)
  return start !== undefined && /^\d+$/.test(start) ? start : undefined;
}

export interface ProcFacts {
  startTime: string;
  uid?: number;
  cgroup: CgroupInfo;
}

/** The stat file alone: cheap, read every collection to notice a reused pid. */
export async function readStartTime(reader: ProcReader, pid: number): Promise<string | undefined> {
  try {
    return parseStatStartTime(await reader.read(pid, "stat"));
  } catch {
    return undefined;
  }
}

/** Owner and cgroup; an unreadable cgroup file (hidepid, LSM) still gives the owner. */
export async function readFacts(
  reader: ProcReader,
  pid: number,
  startTime: string,
): Promise<ProcFacts> {
  const [status, cgroup] = await Promise.all([
    reader.read(pid, "status").catch(() => ""),
    reader.read(pid, "cgroup").catch(() => ""),
  ]);
  const uid = parseStatusUid(status);
  return { startTime, cgroup: parseCgroupFile(cgroup), ...(uid !== undefined ? { uid } : {}) };
}
