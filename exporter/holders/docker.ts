// Container names from the Docker Engine API on its unix socket (--docker.socket):
// GET /containers/json lists the running containers with their names, one request for all.

import { getJson } from "./http-json.ts";
import { RefreshingSnapshot } from "./snapshot.ts";

export interface DockerOptions {
  socketPath: string;
  timeoutMs: number;
  refreshMs?: number;
  onError?: (err: unknown) => void;
}

/** Docker's answer → full container id → name (without Docker's leading "/"). */
export function parseDockerContainers(body: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!Array.isArray(body)) throw new Error("Docker /containers/json: expected an array");
  for (const c of body as unknown[]) {
    if (typeof c !== "object" || c === null) continue;
    const { Id, Names } = c as { Id?: unknown; Names?: unknown };
    const name = Array.isArray(Names) ? Names.find((n) => typeof n === "string") : undefined;
    if (typeof Id === "string" && typeof name === "string") out.set(Id, name.replace(/^\//, ""));
  }
  return out;
}

export class DockerNames {
  private readonly snapshot: RefreshingSnapshot<Map<string, string>>;

  constructor(opts: DockerOptions) {
    const refreshMs = opts.refreshMs ?? 30_000;
    this.snapshot = new RefreshingSnapshot({
      load: async () =>
        parseDockerContainers(
          await getJson({
            url: "/containers/json",
            socketPath: opts.socketPath,
            timeoutMs: opts.timeoutMs,
          }),
        ),
      refreshMs,
      minIntervalMs: Math.min(5_000, refreshMs),
      maxAgeMs: 10 * refreshMs,
      onError: opts.onError,
    });
  }

  name(containerId: string): string | undefined {
    const name = this.snapshot.current()?.get(containerId);
    if (name === undefined) return this.snapshot.current(true)?.get(containerId);
    return name;
  }

  settled(): Promise<void> {
    return this.snapshot.settled();
  }
}
