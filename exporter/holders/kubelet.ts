// Kubernetes namespace, pod and container names from the kubelet's own pod list (GET <url>/pods,
// the node's pods only; --kubelet.url, bearer token read from --kubelet.token-file at each load
// since service account tokens rotate). No API server, no watch: one request per refresh.

import { readFile } from "node:fs/promises";
import { getJson } from "./http-json.ts";
import { RefreshingSnapshot } from "./snapshot.ts";

export interface KubeletOptions {
  url: string;
  tokenFile?: string;
  caFile?: string;
  insecure?: boolean;
  timeoutMs: number;
  refreshMs?: number;
  onError?: (err: unknown) => void;
}

export interface PodNames {
  namespace: string;
  name: string;
}

export interface KubeletIndex {
  pods: Map<string, PodNames>;
  /** container id (runtime prefix removed) → container name */
  containers: Map<string, string>;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

export function parsePodList(body: unknown): KubeletIndex {
  const items = obj(body)?.items;
  if (!Array.isArray(items)) throw new Error("kubelet /pods: expected a PodList with items");
  const pods = new Map<string, PodNames>();
  const containers = new Map<string, string>();
  for (const item of items) {
    const meta = obj(obj(item)?.metadata);
    const uid = str(meta?.uid);
    const namespace = str(meta?.namespace);
    const name = str(meta?.name);
    if (uid && namespace && name) pods.set(uid, { namespace, name });
    const status = obj(obj(item)?.status);
    for (const key of [
      "containerStatuses",
      "initContainerStatuses",
      "ephemeralContainerStatuses",
    ]) {
      const list = status?.[key];
      if (!Array.isArray(list)) continue;
      for (const c of list) {
        const id = str(obj(c)?.containerID);
        const cname = str(obj(c)?.name);
        // "containerd://<id>", "cri-o://<id>", "docker://<id>"
        if (id && cname) containers.set(id.replace(/^[a-z-]+:\/\//, ""), cname);
      }
    }
  }
  return { pods, containers };
}

export class KubeletNames {
  private readonly snapshot: RefreshingSnapshot<KubeletIndex>;

  constructor(opts: KubeletOptions) {
    const refreshMs = opts.refreshMs ?? 30_000;
    const base = opts.url.replace(/\/+$/, "");
    this.snapshot = new RefreshingSnapshot({
      load: async () => {
        const token = opts.tokenFile ? (await readFile(opts.tokenFile, "utf8")).trim() : "";
        const ca = opts.caFile ? await readFile(opts.caFile, "utf8") : undefined;
        const body = await getJson({
          url: `${base}/pods`,
          timeoutMs: opts.timeoutMs,
          headers: token ? { authorization: `Bearer ${token}` } : {},
          ca,
          insecure: opts.insecure,
        });
        return parsePodList(body);
      },
      refreshMs,
      minIntervalMs: Math.min(5_000, refreshMs),
      maxAgeMs: 10 * refreshMs,
      onError: opts.onError,
    });
  }

  pod(uid: string): PodNames | undefined {
    return this.snapshot.current()?.pods.get(uid) ?? this.snapshot.current(true)?.pods.get(uid);
  }

  container(id: string): string | undefined {
    return (
      this.snapshot.current()?.containers.get(id) ?? this.snapshot.current(true)?.containers.get(id)
    );
  }

  settled(): Promise<void> {
    return this.snapshot.settled();
  }
}
