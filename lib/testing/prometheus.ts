import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scrapeConfigYaml, type ScrapeConfigOptions } from "../ingest/scrape-config.ts";

// A real Prometheus (Debian's package) on loopback for integration tests.

export const PROMETHEUS_BIN = process.env.PROMETHEUS_BIN ?? "/usr/bin/prometheus";
export const hasPrometheus = existsSync(PROMETHEUS_BIN);

export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const addr = srv.address();
  await new Promise((r) => srv.close(r));
  if (typeof addr !== "object" || !addr) throw new Error("no free port");
  return addr.port;
}

export interface RunningPrometheus {
  url: string;
  stop(): Promise<void>;
}

export async function startPrometheus(opts: ScrapeConfigOptions): Promise<RunningPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), "gpufleet-prom-"));
  const config = join(dir, "prometheus.yml");
  writeFileSync(config, scrapeConfigYaml(opts));
  return runPrometheus(config, join(dir, "data"), await freePort());
}

/** Runs Prometheus with `config` over `dataDir` on 127.0.0.1:`port`; resolves once it is ready. */
export async function runPrometheus(
  config: string,
  dataDir: string,
  port: number,
): Promise<RunningPrometheus> {
  const child: ChildProcess = spawn(
    PROMETHEUS_BIN,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${dataDir}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=warn",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prometheus exited: ${stderr}`);
    try {
      const res = await fetch(`${url}/-/ready`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`prometheus not ready in 30 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
