// The Attributor for a real host, from the exporter's configuration: the host's /proc, its user
// database through getent, and whichever enrichment sources were given. Each failure is logged
// (rate limited) and leaves its labels absent.

import { existsSync } from "node:fs";
import { join } from "node:path";
import type { HoldersConfig } from "../config.ts";
import type { Logger } from "../log.ts";
import { Attributor } from "./attribute.ts";
import { DockerNames } from "./docker.ts";
import { KubeletNames } from "./kubelet.ts";
import { fsProcReader } from "./procfs.ts";
import { SlurmJobs } from "./slurm.ts";
import { UserNames, getentLookup } from "./users.ts";

export function buildAttributor(cfg: HoldersConfig, log: Logger): Attributor {
  if (!existsSync(join(cfg.procfs, "self", "stat")) && !existsSync(join(cfg.procfs, "1"))) {
    log.log("warn", "--path.procfs is not a procfs: every process will read as unknown", {
      procfs: cfg.procfs,
    });
  }
  const warn = (source: string) => (err: unknown) => {
    const text = err instanceof Error ? err.message : String(err);
    log.limited(`holders:${source}`, "warn", "holder lookup failed; its labels stay absent", {
      source,
      err: text,
    });
  };
  return new Attributor({
    proc: fsProcReader(cfg.procfs),
    users: new UserNames({
      lookup: getentLookup(cfg.timeoutMs),
      onError: (_uid, err) => warn("getent")(err),
    }),
    docker: cfg.dockerSocket
      ? new DockerNames({
          socketPath: cfg.dockerSocket,
          timeoutMs: cfg.timeoutMs,
          onError: warn("docker"),
        })
      : undefined,
    kubelet: cfg.kubeletUrl
      ? new KubeletNames({
          url: cfg.kubeletUrl,
          tokenFile: cfg.kubeletTokenFile || undefined,
          caFile: cfg.kubeletCaFile,
          insecure: cfg.kubeletInsecure,
          timeoutMs: cfg.timeoutMs,
          onError: warn("kubelet"),
        })
      : undefined,
    slurm: cfg.scontrolPath
      ? new SlurmJobs({
          path: cfg.scontrolPath,
          timeoutMs: cfg.timeoutMs,
          onError: (_id, err) => warn("scontrol")(err),
        })
      : undefined,
  });
}
