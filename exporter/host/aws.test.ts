import { afterEach, describe, expect, it } from "vitest";
import { startFakeMetadata, type FakeMetadata } from "../test/fake-metadata.ts";
import { HAVE_PROMTOOL, promtool, sample } from "../test/helpers.ts";
import {
  expectNeverPolled,
  hostInfo,
  noticeCycle,
  startWithFlags,
  type Started,
} from "../test/host-harness.ts";

const SPOT = {
  instanceType: "p5.48xlarge",
  instanceId: "i-0123456789abcdef0",
  region: "us-west-2",
  zone: "us-west-2b",
  spot: true,
};

let fake: FakeMetadata | undefined;
let s: Started | undefined;
afterEach(async () => {
  await s?.e.close();
  await fake?.close();
  s = fake = undefined;
});

async function start(facts = SPOT, flags: string[] = []) {
  fake = await startFakeMetadata("aws", facts);
  s = await startWithFlags(["--host.detect=aws", `--host.detect.endpoint=${fake.url}`, ...flags]);
  return { fake, s };
}

describe("AWS IMDSv2", () => {
  it("fills gpu_host_info from the metadata, with no --host.* value flag", async () => {
    const { fake, s } = await start();
    const text = await s.scrape();
    expect(hostInfo(text)).toEqual({
      hostname: "gpu-aws-use1-001", // the simulated host's own labels stay
      provider: "aws",
      instance_type: "p5.48xlarge",
      region: "us-west-2",
      zone: "us-west-2b",
      pricing_model: "spot",
      instance_id: "i-0123456789abcdef0",
      team: "research",
      project: "llm-pretrain",
      owner: "alice@example.com",
    });
    expect(sample(text, "gpu_exporter_collector_success", { collector: "host_detect" })).toBe(1);
    expect(s.e.detection?.provider).toBe("aws");
    // one token, fetched first with its TTL header, then sent with every GET
    const [first, ...rest] = fake.requests;
    expect(first).toMatchObject({ method: "PUT", path: "/latest/api/token" });
    expect(first?.headers["x-aws-ec2-metadata-token-ttl-seconds"]).toBe("21600");
    expect(rest.map((r) => r.method)).toEqual(Array(5).fill("GET"));
    expect(rest.every((r) => r.headers["x-aws-ec2-metadata-token"] !== undefined)).toBe(true);
    expect(
      s.lines.some((l) => /msg="host detected from cloud metadata" provider=aws/.test(l)),
    ).toBe(true);
  });

  it("the fake refuses what IMDSv2 refuses: no token, a wrong token, a PUT without TTL", async () => {
    const { fake } = await start();
    const path = `${fake.url}/latest/meta-data/instance-type`;
    expect((await fetch(path)).status).toBe(401);
    const wrong = { headers: { "X-aws-ec2-metadata-token": "stolen" } };
    expect((await fetch(path, wrong)).status).toBe(401);
    expect((await fetch(`${fake.url}/latest/api/token`, { method: "PUT" })).status).toBe(400);
    expect((await fetch(`${fake.url}/latest/api/token`)).status).toBe(405);
  });

  it("sees spot/instance-action with its time, and clears it", async () => {
    const { fake, s } = await start();
    const at = new Date("2026-12-01T10:02:00Z");
    const seen = await noticeCycle(s, fake, at);
    expect(seen.before).toEqual({ pending: 0, time: 0 });
    expect(seen.pending).toEqual({ pending: 1, time: at.getTime() / 1000 });
    expect(seen.cleared).toEqual({ pending: 0, time: 0 });
    expect(fake.count("/latest/api/token")).toBe(1); // the session token is reused
    const text = await s.scrape();
    expect(sample(text, "gpu_exporter_collector_success", { collector: "host_interruption" })).toBe(
      1,
    );
    expect(s.lines.some((l) => l.includes('msg="spot interruption announced" provider=aws'))).toBe(
      true,
    );
  });

  it("never polls an on-demand instance", async () => {
    const { fake, s } = await start({ ...SPOT, spot: false });
    expect(hostInfo(await s.scrape()).pricing_model).toBe("on_demand");
    await expectNeverPolled(s, fake);
  });

  it("a flag given explicitly wins over the metadata", async () => {
    const { fake, s } = await start(SPOT, [
      "--host.instance-type=p5e.48xlarge",
      "--host.pricing-model=reserved",
      "--host.zone=us-west-2-lax-1a",
    ]);
    expect(hostInfo(await s.scrape())).toMatchObject({
      instance_type: "p5e.48xlarge",
      pricing_model: "reserved",
      zone: "us-west-2-lax-1a",
      region: "us-west-2", // not given: detected
      instance_id: "i-0123456789abcdef0",
    });
    await expectNeverPolled(s, fake); // reserved, by the operator's word: no spot polling
  });

  it.skipIf(!HAVE_PROMTOOL)("passes promtool check metrics with a notice pending", async () => {
    const { fake, s } = await start();
    fake.setNotice(new Date("2026-12-01T10:02:00Z"));
    await s.e.detection?.poll();
    const text = await s.scrape();
    expect(text).toMatch(/^gpu_host_interruption_pending 1$/m);
    expect(promtool(text)).toEqual({ status: 0, problems: [] });
  });
});
