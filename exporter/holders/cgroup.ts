// Pure parser for /proc/<pid>/cgroup (cgroup v1, v2 and hybrid hosts): which container, pod,
// Slurm job or systemd unit a process belongs to. Real samples, each cited, are in
// exporter/test/fixtures/cgroup/.
//
// Shapes read (one path segment each unless said):
//   docker-<id>.scope, /docker/<id> (last one wins: Docker in Docker), /ecs/<task>/<id>  Docker
//   cri-containerd-<id>.scope, <pod slice>:cri-containerd:<id>                           containerd
//   crio-<id>.scope                                                                     CRI-O
//   libpod-<id>.scope                                                                   Podman
//   kubepods[-<qos>]-pod<uid>.slice, /kubepods[/<qos>]/pod<uid>/<id>                   Kubernetes
//   /slurm/uid_<n>/job_<id>/step_<s>, [<host>_]slurmstepd.scope/job_<id>/step_<s>       Slurm
//   the deepest other *.service / *.scope                                               systemd unit

export type ContainerRuntime = "docker" | "containerd" | "cri-o" | "podman";

export interface CgroupInfo {
  containerRuntime?: ContainerRuntime;
  /** full id as the runtime names it (64 hex for Docker, containerd, CRI-O and Podman) */
  containerId?: string;
  /** Kubernetes pod UID, with dashes (the systemd driver writes underscores) */
  podUid?: string;
  slurmJobId?: string;
  /** "0", "batch", "extern", "interactive", ... */
  slurmStep?: string;
  systemdUnit?: string;
}

export interface CgroupLine {
  hierarchy: number;
  controllers: string[];
  path: string;
}

const HEX_ID = /^[0-9a-f]{64}$/;
const SCOPE_PREFIXES: [prefix: string, runtime: ContainerRuntime][] = [
  ["docker-", "docker"],
  ["cri-containerd-", "containerd"],
  ["crio-", "cri-o"],
  ["libpod-", "podman"],
];
const POD_SLICE = /^kubepods(?:-[a-z]+)?-pod([0-9a-f_-]+)\.slice$/;
const POD_DIR = /^pod([0-9a-f-]{32,36})$/;
const UUID_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function parseCgroupLines(text: string): CgroupLine[] {
  const out: CgroupLine[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const a = line.indexOf(":");
    const b = a < 0 ? -1 : line.indexOf(":", a + 1);
    if (b < 0) continue;
    const hierarchy = Number(line.slice(0, a));
    const path = line.slice(b + 1);
    if (!Number.isInteger(hierarchy) || !path.startsWith("/")) continue;
    const controllers = line
      .slice(a + 1, b)
      .split(",")
      .filter((c) => c !== "");
    out.push({ hierarchy, controllers, path });
  }
  return out;
}

function podUid(raw: string): string {
  return raw.replace(/_/g, "-");
}

/** What one cgroup path says. */
export function parseCgroupPath(path: string): CgroupInfo {
  const info: CgroupInfo = {};
  const segs = path.split("/").filter((s) => s !== "");
  let unit: string | undefined;
  let inKubepods = false;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i] ?? "";
    const next = segs[i + 1];
    // containerd 1.4 with the systemd driver on v1: "<pod slice>:cri-containerd:<id>"
    const colon = /^(.*\.slice):(cri-containerd|docker|crio):([0-9a-f]{64})$/.exec(seg);
    if (colon) {
      const pod = POD_SLICE.exec(colon[1] ?? "");
      if (pod?.[1]) info.podUid = podUid(pod[1]);
      info.containerRuntime = colon[2] === "cri-containerd" ? "containerd" : runtimeOf(colon[2]);
      info.containerId = colon[3];
      continue;
    }
    const scoped = containerScope(seg);
    if (scoped) {
      info.containerRuntime = scoped[0];
      info.containerId = scoped[1];
      continue;
    }
    const podSlice = POD_SLICE.exec(seg);
    if (podSlice?.[1]) {
      info.podUid = podUid(podSlice[1]);
      continue;
    }
    if (seg === "kubepods" || seg.startsWith("kubepods.") || seg.startsWith("kubepods-")) {
      inKubepods = true;
    }
    const podDir = inKubepods ? POD_DIR.exec(seg) : null;
    if (podDir?.[1]) {
      info.podUid = podDir[1];
      // cgroupfs driver: the next segment is the bare container id (runtime not named)
      if (next && (HEX_ID.test(next) || UUID_ID.test(next))) {
        info.containerId = next;
        delete info.containerRuntime;
        i++;
      }
      continue;
    }
    if ((seg === "docker" || seg === "ecs") && next !== undefined) {
      // /docker/<id> (nested: the innermost wins); /ecs/<task>/<id>
      const id = seg === "ecs" ? segs[i + 2] : next;
      if (id && HEX_ID.test(id)) {
        info.containerRuntime = "docker";
        info.containerId = id;
        i += seg === "ecs" ? 2 : 1;
        continue;
      }
    }
    if (i === 0 && segs.length === 1 && HEX_ID.test(seg)) {
      // Docker's cgroupfs driver with --cgroup-parent=/ : the id alone
      info.containerRuntime = "docker";
      info.containerId = seg;
      continue;
    }
    const slurmParent = seg === "slurm" || /(^|_)slurmstepd\.scope$/.test(seg);
    if (slurmParent) {
      for (let j = i + 1; j < segs.length; j++) {
        const s = segs[j] ?? "";
        const job = /^job_(\d+)$/.exec(s);
        if (job?.[1]) info.slurmJobId = job[1];
        const step = /^step_(.+)$/.exec(s);
        if (step?.[1] && info.slurmJobId) info.slurmStep = step[1];
      }
      if (info.slurmJobId) break;
    }
    if (/\.(service|scope)$/.test(seg)) unit = seg;
  }
  if (unit) info.systemdUnit = unit;
  return info;
}

function runtimeOf(name: string | undefined): ContainerRuntime {
  return name === "crio" ? "cri-o" : name === "docker" ? "docker" : "containerd";
}

function containerScope(seg: string): [ContainerRuntime, string] | undefined {
  if (!seg.endsWith(".scope")) return undefined;
  for (const [prefix, runtime] of SCOPE_PREFIXES) {
    if (!seg.startsWith(prefix)) continue;
    const id = seg.slice(prefix.length, -".scope".length);
    // crio-conmon-<id>.scope and libpod-conmon-<id>.scope are the monitors, not the container
    if (HEX_ID.test(id)) return [runtime, id];
  }
  return undefined;
}

function score(i: CgroupInfo): number {
  return (
    (i.containerId ? 4 : 0) + (i.slurmJobId ? 4 : 0) + (i.podUid ? 2 : 0) + (i.systemdUnit ? 1 : 0)
  );
}

/**
 * The whole file: the line that says most wins (v1 hosts may name the job in one controller
 * only, e.g. freezer). On a tie the v2 line (hierarchy 0), then name=systemd, then file order.
 */
export function parseCgroupFile(text: string): CgroupInfo {
  let best: CgroupInfo = {};
  let bestRank = -1;
  for (const line of parseCgroupLines(text)) {
    const info = parseCgroupPath(line.path);
    const tie =
      line.hierarchy === 0 && line.controllers.length === 0
        ? 0.2
        : line.controllers.includes("name=systemd")
          ? 0.1
          : 0;
    const rank = score(info) + tie;
    if (rank > bestRank) {
      best = info;
      bestRank = rank;
    }
  }
  return best;
}
