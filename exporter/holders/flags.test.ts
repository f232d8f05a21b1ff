import { describe, expect, it } from "vitest";
import { HOLDERS_DEFAULTS } from "../config.ts";
import { parseCli, type CliResult } from "../flags.ts";

function config(r: CliResult) {
  if (r.kind !== "run") throw new Error(`expected a config, got ${JSON.stringify(r)}`);
  return r.config;
}

describe("holder flags", () => {
  it("default to attribution on over /proc, every enrichment off", () => {
    expect(config(parseCli([], {})).holders).toEqual(HOLDERS_DEFAULTS);
    expect(HOLDERS_DEFAULTS).toMatchObject({ enabled: true, procfs: "/proc" });
  });

  it("read every flag", () => {
    const h = config(
      parseCli(
        [
          "--no-collect.holders",
          "--path.procfs=/host/proc",
          "--docker.socket=/var/run/docker.sock",
          "--kubelet.url=https://10.0.0.5:10250",
          "--kubelet.token-file=/t",
          "--kubelet.ca-file=/ca.pem",
          "--kubelet.insecure-skip-verify",
          "--slurm.scontrol=/usr/bin/scontrol",
          "--holders.timeout=500ms",
        ],
        {},
      ),
    ).holders;
    expect(h).toEqual({
      enabled: false,
      procfs: "/host/proc",
      dockerSocket: "/var/run/docker.sock",
      kubeletUrl: "https://10.0.0.5:10250",
      kubeletTokenFile: "/t",
      kubeletCaFile: "/ca.pem",
      kubeletInsecure: true,
      scontrolPath: "/usr/bin/scontrol",
      timeoutMs: 500,
    });
  });

  it("read the environment, flags winning", () => {
    const env = {
      GPU_EXPORTER_COLLECT_HOLDERS: "false",
      GPU_EXPORTER_PATH_PROCFS: "/host/proc",
      GPU_EXPORTER_DOCKER_SOCKET: "/d.sock",
    };
    const h = config(parseCli(["--collect.holders"], env)).holders;
    expect(h).toMatchObject({ enabled: true, procfs: "/host/proc", dockerSocket: "/d.sock" });
  });

  it("refuse a bad kubelet URL, timeout or boolean, saying which", () => {
    const err = (argv: string[], env = {}) => {
      const r = parseCli(argv, env);
      return r.kind === "error" ? r.message : r.kind;
    };
    expect(err(["--kubelet.url=10.0.0.5:10250"])).toMatch(/invalid --kubelet.url/);
    expect(err(["--holders.timeout=soon"])).toMatch(/--holders.timeout/);
    expect(err([], { GPU_EXPORTER_COLLECT_HOLDERS: "maybe" })).toMatch(
      /GPU_EXPORTER_COLLECT_HOLDERS="maybe" is not a boolean/,
    );
    expect(err(["--path.procfs="])).toMatch(/--path.procfs must not be empty/);
  });
});
