// The CLI as users run it (tsx, as `npm run exporter` does): exit codes, signals, children.

import { spawn, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { twoH100s } from "./test/fake-gpus.ts";
import { FAKE_NVSMI, FakeNvidiaSmi, REPO, sample, waitFor } from "./test/helpers.ts";

const TSX = ["--import", "tsx", "exporter/main.ts"];

function run(args: string[]) {
  return spawnSync(process.execPath, [...TSX, ...args], {
    cwd: REPO,
    encoding: "utf8",
    timeout: 30_000,
  });
}

/** Start the CLI, wait for its "listening" line, and return the URL it printed. */
function startCli(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(process.execPath, [...TSX, "--web.listen-address=127.0.0.1:0", ...args], {
    cwd: REPO,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = waitFor(() => /address=(http\S+)/.exec(stderr)?.[1], "the listening line", 20_000);
  return { child, url, exited, stderr: () => stderr };
}

describe("gpu-exporter CLI", () => {
  it("--help prints every flag and exits 0", () => {
    const r = run(["--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("--web.listen-address");
    expect(r.stdout).toContain("GPU_EXPORTER_COLLECT_STALE_AFTER");
  });

  it("exits 2 with a clear message on a bad flag value", () => {
    const r = run(["--collect.interval=fast"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--collect.interval: invalid duration "fast"/);
    expect(run(["--no-such-flag"]).status).toBe(2);
  });

  it("serves, then shuts down cleanly on SIGTERM", async () => {
    const cli = startCli(["--simulate", "--simulate.hosts=2"]);
    const url = await cli.url;
    const text = await (await fetch(`${url}/hosts/1/metrics`)).text();
    expect(sample(text, "gpu_host_info")).toBe(1);
    cli.child.kill("SIGTERM");
    expect(await cli.exited).toBe(0);
  }, 30_000);

  it("kills its nvidia-smi children on SIGINT", async () => {
    const fake = new FakeNvidiaSmi(twoH100s());
    const cli = startCli([`--nvidia-smi.path=${FAKE_NVSMI}`, "--collect.interval=200ms"]);
    const url = await cli.url;
    await waitFor(async () => {
      const t = await (await fetch(`${url}/metrics`)).text();
      return sample(t, "gpu_exporter_collector_success", { collector: "nvidia_smi" }) === 1;
    }, "nvidia-smi data");
    expect(fake.alive().length).toBeGreaterThan(0);
    cli.child.kill("SIGINT");
    expect(await cli.exited).toBe(0);
    expect(fake.alive()).toEqual([]);
  }, 30_000);
});
