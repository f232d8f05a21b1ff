// auto detection, timeouts, malformed answers, refresh, and the production (non-simulated)
// path where flags and detection meet.

import { afterEach, describe, expect, it } from "vitest";
import { startFakeMetadata, type FakeFacts, type FakeMetadata } from "../test/fake-metadata.ts";
import { sample } from "../test/helpers.ts";
import { hostInfo, startWithFlags, type Started } from "../test/host-harness.ts";
import { createClient } from "./detect.ts";
import type { Provider } from "./options.ts";

const FACTS: FakeFacts = {
  instanceType: "a2-ultragpu-8g",
  instanceId: "7052463318232937126",
  region: "us-central1",
  zone: "us-central1-c",
  spot: false,
};

const fakes: FakeMetadata[] = [];
let s: Started | undefined;
afterEach(async () => {
  await s?.e.close();
  s = undefined;
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function fake(p: Provider, facts: Partial<FakeFacts> = {}): Promise<FakeMetadata> {
  const f = await startFakeMetadata(p, { ...FACTS, ...facts });
  fakes.push(f);
  return f;
}

const detectSuccess = (text: string) =>
  sample(text, "gpu_exporter_collector_success", { collector: "host_detect" });

describe("--host.detect=auto", () => {
  it("probes every provider at once; the first valid answer in preference order wins", async () => {
    const gcp = await fake("gcp");
    const azure = await fake("azure", { instanceType: "Standard_NC24ads_A100_v4", zone: "" });
    // AWS's probe reaches a GCP server: its token PUT is refused, so AWS is not this host
    s = await startWithFlags(["--host.detect=auto"], {
      endpoints: { aws: gcp.url, gcp: gcp.url, azure: azure.url },
    });
    expect(hostInfo(await s.scrape())).toMatchObject({
      provider: "gcp",
      instance_type: "a2-ultragpu-8g",
      region: "us-central1",
    });
    expect(s.e.detection?.provider).toBe("gcp");
    expect(azure.requests).toHaveLength(1); // probed in parallel, outranked by gcp
    expect(gcp.requests.some((r) => r.method === "PUT")).toBe(true);
  });

  it("settles on no provider for on-prem, keeps the labels and says what each probe got", async () => {
    const tencentLike = await fake("tencent");
    const broken = await fake("aws");
    broken.mode = "hang";
    // the timeout is also what the answering fakes get: 2 s, so a loaded machine's slow answer is
    // still an answer (150 ms once read as "no answer" for the GCP fake in a fresh-clone run)
    s = await startWithFlags(["--host.detect=auto", "--host.detect.timeout=2s"], {
      // every probe reaches the wrong service, or none
      endpoints: { aws: broken.url, gcp: tencentLike.url, azure: tencentLike.url },
    });
    const text = await s.scrape();
    expect(hostInfo(text)).toMatchObject({ provider: "aws", instance_type: "p4d.24xlarge" });
    expect(detectSuccess(text)).toBe(1); // on-prem is an answer, not a failure
    expect(s.e.detection?.provider).toBeUndefined();
    const line = s.lines.find((l) => l.includes("no cloud metadata service answered"));
    expect(line).toContain("aws: PUT /latest/api/token: no answer within 2000ms");
    expect(line).toContain("gcp: /computeMetadata/v1/instance/zone: HTTP 404");
    expect(line).toContain("azure: /metadata/instance?api-version=2021-02-01: HTTP 404");
  });

  it("is off under --simulate unless a test names the endpoints: a demo never probes", async () => {
    s = await startWithFlags(["--host.detect=auto"]);
    expect(s.e.detection).toBeUndefined();
    expect(s.lines.some((l) => l.includes("--host.detect=auto is off under --simulate"))).toBe(
      true,
    );
  });
});

describe("failures keep the labels and say why", () => {
  it("a metadata service that hangs: gives up within the timeout, serves, logs one line", async () => {
    const hung = await fake("aws");
    hung.mode = "hang";
    s = await startWithFlags([
      "--host.detect=aws",
      `--host.detect.endpoint=${hung.url}`,
      "--host.detect.timeout=200ms",
    ]);
    // startWithFlags returned: detection gave up after its timeout instead of hanging the start
    const text = await s.scrape();
    expect(hostInfo(text).instance_type).toBe("p4d.24xlarge"); // unchanged
    expect(detectSuccess(text)).toBe(0);
    const failures = s.lines.filter((l) => l.includes("host detection failed"));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(
      /provider=aws err="PUT \/latest\/api\/token: no answer within 200ms"/,
    );
    expect((await fetch(`${s.e.url}/healthz`)).status).toBe(200);
  });

  it.each([
    [
      "an HTML page",
      { body: "<!doctype html><title>Login</title>", type: "text/html" },
      /HTML page/,
    ],
    ["an empty answer", { body: "" }, /empty answer/],
    ["a huge answer", { body: "x".repeat(200 * 1024) }, /larger than 128 KiB/],
    ["a sentence", { body: "please sign in first" }, /not a plain value/],
    ["a server error", { status: 500, body: "oops" }, /HTTP 500/],
  ])("refuses %s and keeps the flags' values", async (_what, answer, why) => {
    const aws = await fake("aws");
    aws.answers.set("/latest/meta-data/instance-type", answer);
    s = await startWithFlags(["--host.detect=aws", `--host.detect.endpoint=${aws.url}`]);
    const text = await s.scrape();
    expect(hostInfo(text)).toMatchObject({ instance_type: "p4d.24xlarge", provider: "aws" });
    // nothing of the metadata's answers is taken (the simulated host keeps its own instance id)
    expect(hostInfo(text).instance_id).not.toBe(FACTS.instanceId);
    expect(s.lines.find((l) => l.includes("host detection failed"))).toMatch(why);
  });

  it("refuses malformed answers from every provider's client", async () => {
    const opts = (url: string) => ({ base: url, timeoutMs: 500 });
    const gcp = await fake("gcp");
    gcp.answers.set("/computeMetadata/v1/instance/machine-type", { body: "a2-highgpu-1g" });
    await expect(createClient("gcp", opts(gcp.url)).detect()).rejects.toThrow(
      /want projects\/<n>\/machineTypes\/<name>/,
    );
    const azure = await fake("azure");
    azure.answers.set("/metadata/instance?api-version=2021-02-01", { body: "{not json" });
    await expect(createClient("azure", opts(azure.url)).detect()).rejects.toThrow(/not JSON/);
    azure.answers.set("/metadata/instance?api-version=2021-02-01", { body: '{"compute":{}}' });
    await expect(createClient("azure", opts(azure.url)).detect()).rejects.toThrow(/vmSize/);
    const aws = await fake("aws", { spot: true });
    aws.answers.set(aws.noticePath, { body: '{"action":"terminate"}' });
    await expect(createClient("aws", opts(aws.url)).notice()).rejects.toThrow(/"time"/);
    aws.answers.set(aws.noticePath, { body: '{"action":"stop","time":"soon"}' });
    await expect(createClient("aws", opts(aws.url)).notice()).rejects.toThrow(/not a time/);
    const ali = await fake("alibaba");
    ali.answers.set(ali.noticePath, { body: "<html>captive</html>", type: "text/html" });
    await expect(createClient("alibaba", opts(ali.url)).notice()).rejects.toThrow(/HTML/);
  });

  it("a failed notice poll keeps the last answer and reports the collector", async () => {
    const aws = await fake("aws", { spot: true });
    s = await startWithFlags(["--host.detect=aws", `--host.detect.endpoint=${aws.url}`]);
    aws.setNotice(new Date("2026-12-01T10:02:00Z"));
    await s.e.detection?.poll();
    aws.answers.set(aws.noticePath, { body: "garbage" });
    await s.e.detection?.poll();
    const text = await s.scrape();
    expect(sample(text, "gpu_host_interruption_pending")).toBe(1);
    expect(sample(text, "gpu_exporter_collector_success", { collector: "host_interruption" })).toBe(
      0,
    );
  });
});

describe("refresh", () => {
  it("reads the metadata again, keeps values on failure, and stops polling when not spot", async () => {
    const aws = await fake("aws", { spot: true, instanceType: "p5.48xlarge" });
    s = await startWithFlags(["--host.detect=aws", `--host.detect.endpoint=${aws.url}`]);
    await s.e.detection?.poll();
    expect(await s.scrape()).toMatch(/^gpu_host_interruption_pending 0$/m);

    aws.answers.set("/latest/meta-data/instance-type", { body: "p5e.48xlarge" });
    aws.answers.set("/latest/meta-data/instance-life-cycle", { body: "on-demand" });
    await s.e.detection?.refresh();
    let text = await s.scrape();
    expect(hostInfo(text)).toMatchObject({
      instance_type: "p5e.48xlarge",
      pricing_model: "on_demand",
    });
    expect(text).not.toContain("gpu_host_interruption_pending");

    aws.mode = "hang";
    await s.e.detection?.refresh();
    text = await s.scrape();
    expect(hostInfo(text).instance_type).toBe("p5e.48xlarge"); // kept
    expect(detectSuccess(text)).toBe(0);
  });
});

describe("a real host (no --simulate): flags and detection meet", () => {
  it("fills what no flag gave; the default pricing model is not a flag", async () => {
    const aws = await fake("aws", { spot: true, instanceType: "g6e.12xlarge", zone: "eu-west-1a" });
    s = await startWithFlags([
      "--no-simulate",
      "--dcgm.url=http://127.0.0.1:9/metrics", // no GPUs needed to read the host's labels
      "--host.hostname=gpu-node-7",
      "--host.region=eu-west-1",
      "--host.label=team=vision",
      "--host.detect=aws",
      `--host.detect.endpoint=${aws.url}`,
    ]);
    expect(hostInfo(await s.scrape())).toEqual({
      hostname: "gpu-node-7",
      provider: "aws",
      instance_type: "g6e.12xlarge",
      region: "eu-west-1",
      zone: "eu-west-1a",
      pricing_model: "spot",
      instance_id: FACTS.instanceId,
      team: "vision",
    });
  });

  it("without detection, zone and instance_id are simply absent", async () => {
    s = await startWithFlags([
      "--no-simulate",
      "--dcgm.url=http://127.0.0.1:9/metrics",
      "--host.provider=onprem",
    ]);
    const info = hostInfo(await s.scrape());
    expect(info).toMatchObject({ provider: "onprem", pricing_model: "on_demand" });
    expect(Object.keys(info)).not.toContain("zone");
    expect(Object.keys(info)).not.toContain("instance_id");
    expect(s.e.detection).toBeUndefined();
  });
});
