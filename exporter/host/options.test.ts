import { describe, expect, it } from "vitest";
import { helpText, parseCli, type CliResult } from "../flags.ts";
import { baseFor, DEFAULT_BASES, DETECT_DEFAULTS } from "./options.ts";

function run(r: CliResult) {
  if (r.kind !== "run") throw new Error(`expected a config, got ${JSON.stringify(r)}`);
  return r.config;
}

function error(r: CliResult): string {
  if (r.kind !== "error") throw new Error(`expected an error, got ${r.kind}`);
  return r.message;
}

describe("--host.detect flags", () => {
  it("default to no detection, 500ms requests, hourly refresh, 5 s notice polls", () => {
    const c = run(parseCli([], {}));
    expect(c.detect).toEqual(DETECT_DEFAULTS);
    expect(c.detect).toMatchObject({
      mode: "none",
      timeoutMs: 500,
      refreshMs: 3_600_000,
      pollMs: 5000,
    });
    expect(c.host).toMatchObject({ zone: "", instanceId: "", given: [] });
  });

  it("read flags and their environment variables; given fields are recorded", () => {
    const c = run(
      parseCli(
        [
          "--host.detect=aws",
          "--host.detect.endpoint=http://127.0.0.1:8080/imds/",
          "--host.detect.timeout=300ms",
          "--host.detect.refresh-interval=30m",
          "--host.interruption.poll-interval=2s",
          "--host.zone=us-east-1a",
          "--host.instance-id=i-1",
          "--host.region=",
        ],
        {},
      ),
    );
    expect(c.detect).toMatchObject({
      mode: "aws",
      endpoint: "http://127.0.0.1:8080/imds/",
      timeoutMs: 300,
      refreshMs: 1_800_000,
      pollMs: 2000,
    });
    expect(c.host.given).toEqual(["zone", "instanceId"]); // an empty flag is not a value
    expect(baseFor(c.detect, "aws", false)).toBe("http://127.0.0.1:8080/imds");
    const env = run(
      parseCli([], { GPU_EXPORTER_HOST_DETECT: "auto", GPU_EXPORTER_HOST_PRICING_MODEL: "spot" }),
    );
    expect(env.detect.mode).toBe("auto");
    expect(env.host.given).toEqual(["pricingModel"]);
    expect(baseFor(env.detect, "azure", false)).toBe(DEFAULT_BASES.azure);
  });

  it.each([
    [["--host.detect=ibm"], /invalid --host.detect "ibm"/],
    [
      ["--host.detect=auto", "--host.detect.endpoint=http://127.0.0.1:1"],
      /needs an explicit provider/,
    ],
    [["--host.detect.endpoint=http://127.0.0.1:1"], /needs --host.detect=<provider>/],
    [["--host.detect=gcp", "--host.detect.endpoint=ftp://x"], /invalid --host.detect.endpoint/],
    [
      ["--host.detect=gcp", "--host.detect.endpoint=http://x/?a=1"],
      /invalid --host.detect.endpoint/,
    ],
    [["--host.detect=aws", "--host.detect.timeout=10ms"], /from 50ms to 30s/],
    [["--host.detect=aws", "--host.detect.timeout=soon"], /invalid duration/],
    [["--host.detect.refresh-interval=1s"], /at least 10s/],
    [["--host.interruption.poll-interval=100ms"], /from 1s to 10m/],
    [["--simulate", "--host.detect=azure"], /needs --host.detect.endpoint/],
    [["--host.label=zone=a"], /--host.zone/],
    [["--host.label=instance_id=i-1"], /--host.instance-id/],
  ])("refuses %j", (args, message) => {
    expect(error(parseCli(args, {}))).toMatch(message);
  });

  it("--help documents them", () => {
    const text = helpText();
    for (const flag of [
      "--host.detect=VALUE",
      "--host.detect.endpoint=VALUE",
      "--host.detect.timeout=VALUE",
      "--host.detect.refresh-interval=VALUE",
      "--host.interruption.poll-interval=VALUE",
      "--host.zone=VALUE",
      "--host.instance-id=VALUE",
    ]) {
      expect(text).toContain(flag);
    }
    expect(text).toContain("GPU_EXPORTER_HOST_DETECT_ENDPOINT");
  });

  it("a simulated fleet asks no real address, even where the config would allow it", () => {
    const sim = run(parseCli(["--simulate", "--host.detect=auto"], {}));
    for (const p of ["aws", "gcp", "azure", "alibaba", "tencent"] as const) {
      expect(baseFor(sim.detect, p, true)).toBeUndefined();
    }
    // programmatic endpoints (tests of auto) list exactly what may be asked
    const only = { ...sim.detect, endpoints: { gcp: "http://127.0.0.1:1/" } };
    expect(baseFor(only, "gcp", false)).toBe("http://127.0.0.1:1");
    expect(baseFor(only, "aws", false)).toBeUndefined();
  });
});
