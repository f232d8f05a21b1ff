import { afterEach, describe, expect, it } from "vitest";
import { startFakeMetadata, type FakeMetadata } from "../test/fake-metadata.ts";
import {
  expectNeverPolled,
  hostInfo,
  noticeCycle,
  startWithFlags,
  type Started,
} from "../test/host-harness.ts";

const FACTS = {
  instanceType: "ecs.gn7i-c32g1.8xlarge",
  instanceId: "i-bp67acfmxazb4ph8****".replace(/\*/g, "x"),
  region: "cn-hangzhou",
  zone: "cn-hangzhou-i",
  spot: true, // the fake cannot say it: Alibaba's metadata carries no billing method
};

let fake: FakeMetadata | undefined;
let s: Started | undefined;
afterEach(async () => {
  await s?.e.close();
  await fake?.close();
  s = fake = undefined;
});

async function start(flags: string[] = []) {
  fake = await startFakeMetadata("alibaba", FACTS);
  s = await startWithFlags([
    "--host.detect=alibaba",
    `--host.detect.endpoint=${fake.url}`,
    ...flags,
  ]);
  return { fake, s };
}

describe("Alibaba Cloud ECS metadata (hardened mode)", () => {
  it("reads type, region, zone and id with a session token", async () => {
    const { fake, s } = await start();
    expect(hostInfo(await s.scrape())).toMatchObject({
      provider: "alibaba",
      instance_type: "ecs.gn7i-c32g1.8xlarge",
      region: "cn-hangzhou",
      zone: "cn-hangzhou-i",
      // not in Alibaba's metadata: the label stays as it was (the simulated host's; on a real
      // host, --host.pricing-model's)
      pricing_model: "reserved",
      instance_id: FACTS.instanceId,
    });
    const [put, ...gets] = fake.requests;
    expect(put).toMatchObject({ method: "PUT", path: "/latest/api/token" });
    expect(put?.headers["x-aliyun-ecs-metadata-token-ttl-seconds"]).toBe("21600");
    expect(gets.every((r) => r.headers["x-aliyun-ecs-metadata-token"] !== undefined)).toBe(true);
  });

  it("the fake refuses what hardened mode refuses: no token, a wrong one", async () => {
    const { fake } = await start();
    const path = `${fake.url}/latest/meta-data/instance-id`;
    expect((await fetch(path)).status).toBe(403);
    const wrong = { headers: { "X-aliyun-ecs-metadata-token": "guess" } };
    expect((await fetch(path, wrong)).status).toBe(401);
  });

  it("with --host.pricing-model=spot, sees spot/termination-time and clears it", async () => {
    const { fake, s } = await start(["--host.pricing-model=spot"]);
    const at = new Date("2026-12-01T10:05:00Z");
    const seen = await noticeCycle(s, fake, at);
    expect(seen.before).toEqual({ pending: 0, time: 0 });
    expect(seen.pending).toEqual({ pending: 1, time: at.getTime() / 1000 });
    expect(seen.cleared).toEqual({ pending: 0, time: 0 });
  });

  it("never polls an instance not declared spot", async () => {
    const { fake, s } = await start();
    await expectNeverPolled(s, fake);
  });
});
