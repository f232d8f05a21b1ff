import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { parseDuration } from "./duration.ts";
import { FLAGS, envName, helpText, parseCli, type CliResult } from "./flags.ts";

function config(r: CliResult) {
  if (r.kind !== "run") throw new Error(`expected a config, got ${JSON.stringify(r)}`);
  return r.config;
}

function error(r: CliResult): string {
  if (r.kind !== "error") throw new Error(`expected an error, got ${r.kind}`);
  return r.message;
}

describe("flags", () => {
  it("has the documented defaults", () => {
    const c = config(parseCli([], {}));
    expect(c).toMatchObject({
      listenAddress: ":9445",
      telemetryPath: "/metrics",
      intervalMs: 5000,
      staleAfterMs: 15000,
      nvidiaSmiPath: "nvidia-smi",
      simulate: false,
      simulateSeed: 42,
      simulateHosts: 1,
      simulateGpusPerHost: 0,
      host: { hostname: hostname(), pricingModel: "on_demand", provider: "", labels: {} },
    });
    expect(c.webConfigFile).toBeUndefined();
    expect(c.dcgmUrl).toBeUndefined();
    expect(c.compat).toBeUndefined();
  });

  it("reads every flag", () => {
    const c = config(
      parseCli(
        [
          "--web.listen-address=127.0.0.1:9500",
          "--web.telemetry-path=/m",
          "--web.config.file=/etc/web.yml",
          "--collect.interval=500ms",
          "--collect.stale-after=1m30s",
          "--nvidia-smi.path=/usr/bin/nvidia-smi",
          "--compat=dcgm",
          "--host.provider=aws",
          "--host.instance-type=p5.48xlarge",
          "--host.region=us-east-1",
          "--host.pricing-model=spot",
          "--host.hostname=gpu-1",
          "--host.label=team=ml",
          "--host.label",
          "owner=alice@x",
          "--host.label=project=llm",
          "--simulate",
          "--simulate.seed=7",
          "--simulate.hosts",
          "1000",
        ],
        {},
      ),
    );
    expect(c).toMatchObject({
      listenAddress: "127.0.0.1:9500",
      telemetryPath: "/m",
      webConfigFile: "/etc/web.yml",
      intervalMs: 500,
      staleAfterMs: 90_000,
      nvidiaSmiPath: "/usr/bin/nvidia-smi",
      compat: "dcgm",
      host: {
        provider: "aws",
        instanceType: "p5.48xlarge",
        region: "us-east-1",
        pricingModel: "spot",
        hostname: "gpu-1",
        labels: { team: "ml", owner: "alice@x", project: "llm" },
      },
      simulate: true,
      simulateSeed: 7,
      simulateHosts: 1000,
      simulateGpusPerHost: 0,
    });
    expect(config(parseCli(["--dcgm.url=http://127.0.0.1:9400/metrics"], {})).dcgmUrl).toBe(
      "http://127.0.0.1:9400/metrics",
    );
  });

  it("falls back to environment variables; a flag wins", () => {
    const env = {
      GPU_EXPORTER_WEB_LISTEN_ADDRESS: ":9999",
      GPU_EXPORTER_COLLECT_INTERVAL: "2s",
      GPU_EXPORTER_HOST_LABEL: "team=ml,project=llm",
      GPU_EXPORTER_SIMULATE: "true",
      GPU_EXPORTER_HOST_PRICING_MODEL: "reserved",
    };
    const c = config(parseCli([], env));
    expect(c).toMatchObject({
      listenAddress: ":9999",
      intervalMs: 2000,
      staleAfterMs: 6000,
      simulate: true,
    });
    expect(c.host).toMatchObject({
      pricingModel: "reserved",
      labels: { team: "ml", project: "llm" },
    });
    const f = config(
      parseCli(["--web.listen-address=:1234", "--host.label=a=b", "--no-simulate"], env),
    );
    expect(f.listenAddress).toBe(":1234");
    expect(f.host.labels).toEqual({ a: "b" });
    expect(f.simulate).toBe(false);
  });

  it.each([
    [["--bogus"], /bogus/],
    [["--collect.interval=5"], /invalid duration "5"/],
    [["--collect.interval=50ms"], /at least 100ms/],
    [["--collect.interval=1s", "--collect.stale-after=500ms"], /stale-after/],
    [["--web.listen-address=9445"], /listen-address/],
    [["--web.telemetry-path=metrics"], /telemetry-path/],
    [["--host.pricing-model=free"], /pricing-model "free"/],
    [["--host.label=noequals"], /key=value/],
    [["--host.label=1bad=x"], /label name/],
    [["--host.label=region=x"], /--host.region/],
    [["--host.label=a=1", "--host.label=a=2"], /twice/],
    [["--compat=nvml"], /compat "nvml"/],
    [["--dcgm.url=ftp://x"], /dcgm.url/],
    [["--simulate", "--dcgm.url=http://127.0.0.1:1/metrics"], /exclude/],
    [["--simulate.hosts=0"], /1 to 10000/],
    [["--simulate.hosts=abc"], /not an integer/],
    [["--simulate.seed=1.5"], /not an integer/],
    [["--log.level=loud"], /log.level/],
    [["--simulate=yes"], /simulate/],
  ])("refuses %j", (args, message) => {
    expect(error(parseCli(args, {}))).toMatch(message);
  });

  it("refuses a bad environment value too", () => {
    expect(error(parseCli([], { GPU_EXPORTER_SIMULATE: "perhaps" }))).toMatch(
      /GPU_EXPORTER_SIMULATE/,
    );
    expect(error(parseCli([], { GPU_EXPORTER_COLLECT_INTERVAL: "soon" }))).toMatch(/duration/);
  });

  it("--help lists every flag with its default and environment variable", () => {
    expect(parseCli(["--help"], {}).kind).toBe("help");
    expect(parseCli(["-h"], {}).kind).toBe("help");
    const text = helpText();
    for (const f of FLAGS) {
      expect(text).toContain(`--${f.name}`);
      expect(text).toContain(envName(f.name));
      if (f.def !== undefined) expect(text).toContain(`Default: ${JSON.stringify(f.def)}`);
    }
    expect(envName("web.listen-address")).toBe("GPU_EXPORTER_WEB_LISTEN_ADDRESS");
    expect(text).toContain('Default: ":9445"');
  });
});

describe("parseDuration", () => {
  it("reads Go durations", () => {
    expect(parseDuration("500ms")).toBe(500);
    expect(parseDuration("5s")).toBe(5000);
    expect(parseDuration("1m")).toBe(60_000);
    expect(parseDuration("1h2m3s")).toBe(3_723_000);
    expect(parseDuration("1.5s")).toBe(1500);
    expect(parseDuration("0")).toBe(0);
    expect(parseDuration("5")).toBeInstanceOf(Error);
    expect(parseDuration("5 s")).toBeInstanceOf(Error);
    expect(parseDuration("-1s")).toBeInstanceOf(Error);
  });
});
