import { afterEach, describe, expect, it } from "vitest";
import { startFakeMetadata, type FakeMetadata } from "../test/fake-metadata.ts";
import {
  expectNeverPolled,
  hostInfo,
  noticeCycle,
  startWithFlags,
  type Started,
} from "../test/host-harness.ts";
import { tencentTime } from "./tencent.ts";

const SPOT = {
  instanceType: "GN10Xp.20XLARGE320",
  instanceId: "ins-3g445roi",
  region: "ap-guangzhou",
  zone: "ap-guangzhou-3",
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
  fake = await startFakeMetadata("tencent", facts);
  s = await startWithFlags(["--host.detect=tencent", `--host.detect.endpoint=${fake.url}`]);
  return { fake, s };
}

describe("Tencent Cloud CVM metadata", () => {
  it("reads type, region, zone, id, and the billing plan SPOTPAID as spot", async () => {
    const { fake, s } = await start();
    expect(hostInfo(await s.scrape())).toMatchObject({
      provider: "tencent",
      instance_type: "GN10Xp.20XLARGE320",
      region: "ap-guangzhou",
      zone: "ap-guangzhou-3",
      pricing_model: "spot",
      instance_id: "ins-3g445roi",
    });
    expect(fake.requests.every((r) => r.method === "GET")).toBe(true);
    expect((await fetch(`${fake.url}/latest/meta-data/not-a-key`)).status).toBe(404);
  });

  it("sees spot/termination-time (UTC+8, no zone in the text) and clears it", async () => {
    const { fake, s } = await start();
    const at = new Date("2026-12-01T10:05:33Z");
    const seen = await noticeCycle(s, fake, at);
    expect(seen.before).toEqual({ pending: 0, time: 0 });
    expect(seen.pending).toEqual({ pending: 1, time: at.getTime() / 1000 });
    expect(seen.cleared).toEqual({ pending: 0, time: 0 });
  });

  it("reads the documented example time as UTC+8", () => {
    expect(tencentTime("2018-08-18 12:05:33", "t")).toBe(Date.UTC(2018, 7, 18, 4, 5, 33) / 1000);
    expect(() => tencentTime("tomorrow", "t")).toThrow(/not a time/);
  });

  it("never polls a pay-as-you-go instance", async () => {
    const { fake, s } = await start({ ...SPOT, spot: false });
    expect(hostInfo(await s.scrape()).pricing_model).toBe("on_demand");
    await expectNeverPolled(s, fake);
  });
});
