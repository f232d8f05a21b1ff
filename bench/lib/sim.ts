// The simulated exporter fleet as a child process on loopback.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, start, waitHttp, type Proc } from "./procs.ts";

export interface Sim {
  proc: Proc;
  url: string;
  /** file_sd JSON with one target per simulated host */
  targetsFile: string;
  targets: number;
}

export async function startSim(
  hosts: number,
  gpusPerHost: number,
  dir: string,
  intervalS = 5,
): Promise<Sim> {
  const port = await freePort();
  const proc = start("simulated exporter", process.execPath, [
    "--import",
    "tsx",
    "exporter/main.ts",
    "--simulate",
    "--simulate.seed=42",
    `--simulate.hosts=${hosts}`,
    `--simulate.gpus-per-host=${gpusPerHost}`,
    `--collect.interval=${intervalS}s`,
    "--log.level=warn",
    `--web.listen-address=127.0.0.1:${port}`,
  ]);
  const url = `http://127.0.0.1:${port}`;
  await waitHttp(proc, `${url}/healthz`, 60_000);
  const text = await (await fetch(`${url}/targets.json`)).text();
  const targetsFile = join(dir, `targets-${port}.json`);
  writeFileSync(targetsFile, text);
  const groups = JSON.parse(text) as Array<{ targets: string[] }>;
  return { proc, url, targetsFile, targets: groups.reduce((n, g) => n + g.targets.length, 0) };
}
