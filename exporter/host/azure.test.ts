import { afterEach, describe, expect, it } from "vitest";
import { startFakeMetadata, type FakeMetadata } from "../test/fake-metadata.ts";
import {
  expectNeverPolled,
  hostInfo,
  noticeCycle,
  startWithFlags,
  type Started,
} from "../test/host-harness.ts";

const SPOT = {
  instanceType: "Standard_ND96asr_v4",
  instanceId: "02aab8a4-74ef-476e-8182-f6d2ba4166a6",
  region: "eastus",
  zone: "2",
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
  fake = await startFakeMetadata("azure", facts);
  s = await startWithFlags(["--host.detect=azure", `--host.detect.endpoint=${fake.url}`]);
  return { fake, s };
}

describe("Azure IMDS", () => {
  it("reads compute from /metadata/instance with Metadata: true and the api-version", async () => {
    const { fake, s } = await start();
    expect(hostInfo(await s.scrape())).toMatchObject({
      provider: "azure",
      instance_type: "Standard_ND96asr_v4",
      region: "eastus",
      zone: "eastus-2",
      pricing_model: "spot",
      instance_id: "02aab8a4-74ef-476e-8182-f6d2ba4166a6",
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.path).toBe("/metadata/instance?api-version=2021-02-01");
    expect(fake.requests[0]?.headers.metadata).toBe("true");
  });

  it("the fake refuses what IMDS refuses: no Metadata header, no api-version", async () => {
    const { fake } = await start();
    expect((await fetch(`${fake.url}/metadata/instance?api-version=2021-02-01`)).status).toBe(400);
    const header = { headers: { Metadata: "true" } };
    expect((await fetch(`${fake.url}/metadata/instance`, header)).status).toBe(400);
  });

  it("sees a Preempt scheduled event for this VM, with its NotBefore, and clears it", async () => {
    const { fake, s } = await start();
    const at = new Date("2026-12-01T10:00:30Z");
    const seen = await noticeCycle(s, fake, at);
    expect(seen.before).toEqual({ pending: 0, time: 0 });
    expect(seen.pending).toEqual({ pending: 1, time: at.getTime() / 1000 });
    expect(seen.cleared).toEqual({ pending: 0, time: 0 });
    expect(fake.count("/metadata/scheduledevents?api-version=2020-07-01")).toBe(3);
  });

  it("ignores a Preempt event for another VM of the availability set", async () => {
    const { fake, s } = await start();
    fake.setNotice(new Date("2026-12-01T10:00:30Z"));
    const path = fake.noticePath;
    const doc = JSON.parse(fake.answers.get(path)?.body ?? "{}") as {
      Events: { Resources: string[] }[];
    };
    for (const e of doc.Events) e.Resources = ["gpu-vm-2"];
    fake.answers.set(path, { body: JSON.stringify(doc) });
    await s.e.detection?.poll();
    const text = await s.scrape();
    expect(text).toMatch(/^gpu_host_interruption_pending 0$/m);
  });

  it("never polls a Regular-priority VM", async () => {
    const { fake, s } = await start({ ...SPOT, spot: false });
    expect(hostInfo(await s.scrape()).pricing_model).toBe("on_demand");
    await expectNeverPolled(s, fake);
  });
});
