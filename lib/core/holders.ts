// Who holds a GPU (issue 24): one holder per compute process, read from the labels the exporter puts
// on gpu_process_memory_used_bytes (HOLDER_LABELS in exporter/contract.ts) or from dcgm-exporter's
// Kubernetes labels (`pod`, `namespace`, `container`). Pure; the store keeps holders as JSON.

/** What a holder is, most specific first: a Slurm job, a Kubernetes pod, a container, a process. */
export type HolderKind = "job" | "pod" | "container" | "process";

export interface Holder {
  /** the person: Slurm's job user, else the process's user (a name, a numeric uid or "unknown") */
  user: string | null;
  kind: HolderKind;
  /** the job id, pod uid (or namespace/name), container id (12 characters) or process name */
  ref: string;
  /** a readable name where one is known: pod, container or process name */
  name: string | null;
  /** the pod's namespace (a directory may map it to a person) */
  namespace: string | null;
  /** the Slurm account (a directory may map it to a person) */
  account: string | null;
}

/** A holder and the memory it held (bytes; a mean over a minute where aggregated). */
export interface HolderMemory {
  holder: Holder;
  memBytes: number;
}

const MAX_LABEL = 253;

function label(labels: Record<string, string | undefined>, ...names: string[]): string | null {
  for (const n of names) {
    const v = labels[n];
    if (v !== undefined && v !== "") return v.slice(0, MAX_LABEL);
  }
  return null;
}

/**
 * The holder named by a series' labels, or null when they name nobody (no user, container, pod or
 * job: an exporter running with attribution off, or a per-GPU series without Kubernetes labels).
 */
export function holderFromLabels(labels: Record<string, string | undefined>): Holder | null {
  const user = label(labels, "slurm_user", "user");
  const namespace = label(labels, "pod_namespace", "namespace");
  const account = label(labels, "slurm_account");
  const job = label(labels, "slurm_job_id");
  const podUid = label(labels, "pod_uid");
  const podName = label(labels, "pod_name", "pod");
  const container = label(labels, "container_id");
  const containerName = label(labels, "container_name", "pod_container", "container");
  const process = label(labels, "process_name");
  const base = { user, namespace, account };
  if (job) return { ...base, kind: "job", ref: job, name: null };
  if (podUid || podName) {
    const ref = podUid ?? `${namespace ?? ""}/${podName}`;
    return { ...base, kind: "pod", ref, name: podName };
  }
  if (container)
    return { ...base, kind: "container", ref: container.slice(0, 12), name: containerName };
  if (user === null) return null;
  return { ...base, kind: "process", ref: process ?? "", name: process };
}

/** A stable key for a holder: the same person running the same thing is one holder. */
export function holderKey(h: Holder): string {
  return `${h.user ?? ""}|${h.kind}:${h.ref}`;
}

/** "alice · job 4242", "ml/trainer-0 (pod)", "bob · python": for pages, alerts and CSVs. */
export function describeHolder(h: Holder): string {
  const what =
    h.kind === "job"
      ? `job ${h.ref}`
      : h.kind === "pod"
        ? `pod ${h.namespace ? `${h.namespace}/` : ""}${h.name ?? h.ref}`
        : h.kind === "container"
          ? `container ${h.name ?? h.ref}`
          : h.ref || "process";
  return h.user ? `${h.user} · ${what}` : what;
}

/** Holders of one GPU reading, merged by key, largest memory first. */
export function mergeHolders(items: readonly HolderMemory[]): HolderMemory[] {
  const byKey = new Map<string, HolderMemory>();
  for (const it of items) {
    const k = holderKey(it.holder);
    const prev = byKey.get(k);
    if (prev) prev.memBytes += it.memBytes;
    else byKey.set(k, { holder: it.holder, memBytes: it.memBytes });
  }
  return [...byKey.values()].sort(
    (a, b) => b.memBytes - a.memBytes || (holderKey(a.holder) < holderKey(b.holder) ? -1 : 1),
  );
}

const KINDS = new Set<HolderKind>(["job", "pod", "container", "process"]);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** A holder read back from stored JSON; anything malformed reads as null. */
export function parseHolder(v: unknown): Holder | null {
  if (typeof v !== "object" || v === null) return null;
  const o = v as Record<string, unknown>;
  const kind = o.kind as HolderKind;
  if (!KINDS.has(kind) || typeof o.ref !== "string") return null;
  return {
    user: str(o.user),
    kind,
    ref: o.ref,
    name: str(o.name),
    namespace: str(o.namespace),
    account: str(o.account),
  };
}

/** A GPU-minute's holders as the store keeps them (GpuMinute.holders); malformed JSON reads as none. */
export function parseHolderMemories(json: string | null): HolderMemory[] {
  if (!json) return [];
  try {
    const v: unknown = JSON.parse(json);
    if (!Array.isArray(v)) return [];
    return v.flatMap((x: unknown) => {
      const o = x as { holder?: unknown; memBytes?: unknown } | null;
      const holder = parseHolder(o?.holder);
      const mem = Number(o?.memBytes);
      return holder && Number.isFinite(mem) ? [{ holder, memBytes: mem }] : [];
    });
  } catch {
    return [];
  }
}
