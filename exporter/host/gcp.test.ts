import { afterEach, describe, expect, it } from "vitest";
import { startFakeMetadata, type FakeMetadata } from "../test/fake-metadata.ts";
import {
  CLOCK_MS,
  expectNeverPolled,
  hostInfo,
  noticeCycle,
  startWithFlags,
  type Started,
} from "../test/host-harness.ts";

const SPOT = {
  instanceType: "a3-highgpu-8g",
  instanceId: "4520031799277581759",
  region: "unused: derived from the zone",
  zone: "europe-west4-b",
  spot: true,
};

let fake: FakeMetadata | undefined;
let s: Started | undefined;
afterEach(async () => {
  await s?.e.close();
  await fake?.close();
  s = fake = undefined;
});

async function start(facts = SPOT) {
  fake = await startFakeMetadata("gcp", facts);
  s = await startWithFlags(["--host.detect=gcp", `--host.detect.endpoint=${fake.url}`]);
  return { fake, s };
}

describe("GCP metadata server", () => {
  it("takes machine type and zone from their paths, the region from the zone", async () => {
    const { fake, s } = await start();
    expect(hostInfo(await s.scrape())).toMatchObject({
      provider: "gcp",
      instance_type: "a3-highgpu-8g",
      region: "europe-west4",
      zone: "europe-west4-b",
      pricing_model: "spot",
      instance_id: "4520031799277581759",
    });
    expect(fake.requests.every((r) => r.headers["metadata-flavor"] === "Google")).toBe(true);
    expect(fake.requests.map((r) => r.path).sort()).toEqual([
      "/computeMetadata/v1/instance/id",
      "/computeMetadata/v1/instance/machine-type",
      "/computeMetadata/v1/instance/scheduling/preemptible",
      "/computeMetadata/v1/instance/scheduling/provisioning-model",
      "/computeMetadata/v1/instance/zone",
    ]);
  });

  it("the fake refuses a request without Metadata-Flavor: Google", async () => {
    const { fake } = await start();
    const res = await fetch(`${fake.url}/computeMetadata/v1/instance/id`);
    expect(res.status).toBe(403);
  });

  it("a preemptible VM without provisioning-model (older images) is spot too", async () => {
    fake = await startFakeMetadata("gcp", SPOT);
    fake.answers.delete("/computeMetadata/v1/instance/scheduling/provisioning-model");
    s = await startWithFlags(["--host.detect=gcp", `--host.detect.endpoint=${fake.url}`]);
    expect(hostInfo(await s.scrape()).pricing_model).toBe("spot");
  });

  it("sees instance/preempted, timed when first seen (GCP gives no time), and clears it", async () => {
    const { fake, s } = await start();
    const seen = await noticeCycle(s, fake, new Date());
    expect(seen.before).toEqual({ pending: 0, time: 0 });
    expect(seen.pending).toEqual({ pending: 1, time: CLOCK_MS / 1000 });
    expect(seen.cleared).toEqual({ pending: 0, time: 0 });
  });

  it("never polls a standard VM", async () => {
    const { fake, s } = await start({ ...SPOT, spot: false });
    expect(hostInfo(await s.scrape()).pricing_model).toBe("on_demand");
    await expectNeverPolled(s, fake);
  });
});
