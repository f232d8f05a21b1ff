import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./prometheus.ts";

// A real Alertmanager (Debian's prometheus-alertmanager) on 127.0.0.1 for tests: a null receiver
// (it notifies nobody), temporary storage, no cluster gossip, and a free port.

export const ALERTMANAGER_BIN = process.env.ALERTMANAGER_BIN ?? "/usr/bin/prometheus-alertmanager";
export const hasAlertmanager = existsSync(ALERTMANAGER_BIN);

const CONFIG = `route:
  receiver: "null"
receivers:
  - name: "null"
`;

export interface GettableAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  generatorURL?: string;
  status: { state: string; silencedBy: string[]; inhibitedBy: string[] };
}

export interface RunningAlertmanager {
  url: string;
  /** GET /api/v2/alerts (active, silenced and inhibited alike; Alertmanager never lists resolved ones) */
  alerts(): Promise<GettableAlert[]>;
  /** POST /api/v2/silences for 1 hour from now; returns the silence id */
  silence(matchers: Record<string, string>): Promise<string>;
  stop(): Promise<void>;
}

async function json(res: Response): Promise<unknown> {
  if (!res.ok) throw new Error(`alertmanager: HTTP ${res.status}: ${await res.text()}`);
  return res.json();
}

export async function startAlertmanager(): Promise<RunningAlertmanager> {
  const dir = mkdtempSync(join(tmpdir(), "gpufleet-am-"));
  const config = join(dir, "alertmanager.yml");
  writeFileSync(config, CONFIG);
  const port = await freePort();
  const child: ChildProcess = spawn(
    ALERTMANAGER_BIN,
    [
      `--config.file=${config}`,
      `--storage.path=${join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--cluster.listen-address=",
      "--log.level=warn",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.on("error", (e) => (stderr += `\n${e.message}`));
  child.stderr?.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`alertmanager exited: ${stderr}`);
    try {
      if ((await fetch(`${url}/-/ready`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`alertmanager not ready in 20 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    alerts: async () => (await json(await fetch(`${url}/api/v2/alerts`))) as GettableAlert[],
    async silence(matchers) {
      const now = Date.now();
      const body = {
        matchers: Object.entries(matchers).map(([name, value]) => ({
          name,
          value,
          isRegex: false,
          isEqual: true,
        })),
        startsAt: new Date(now - 60_000).toISOString(),
        endsAt: new Date(now + 3_600_000).toISOString(),
        createdBy: "gpufleet tests",
        comment: "silence made in Alertmanager",
      };
      const res = await fetch(`${url}/api/v2/silences`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return ((await json(res)) as { silenceID: string }).silenceID;
    },
    stop,
  };
}
