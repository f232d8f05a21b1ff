// Alibaba Cloud ECS instance metadata at 100.100.100.200, in hardened (token) mode, which also
// works where tokens are optional:
// - token: PUT /latest/api/token with X-aliyun-ecs-metadata-token-ttl-seconds (1-21600), then
//   X-aliyun-ecs-metadata-token on every GET:
//   https://www.alibabacloud.com/help/en/ecs/user-guide/view-instance-metadata
// - /latest/meta-data/{instance/instance-type,region-id,zone-id,instance-id}
// - /latest/meta-data/instance/spot/termination-time: 404 while no reclaim is scheduled, then
//   a UTC time such as 2015-01-05T18:02:00Z:
//   https://www.alibabacloud.com/help/en/ecs/user-guide/best-practices-for-preemptible-instances
// The metadata says nothing about billing, so the pricing model comes from --host.pricing-model
// (set it to spot on spot instances: that turns the notice polling on).

import { metaFetch, ok, optionalPlain, plain, seconds, tokenCache } from "./fetch.ts";
import type { ClientOptions, HostFacts, Notice, ProviderClient } from "./types.ts";

const TTL_S = 21600;
const META = "/latest/meta-data/";

export function alibabaClient(opts: ClientOptions): ProviderClient {
  const tokens = tokenCache(opts, async () => {
    const path = "/latest/api/token";
    const a = await metaFetch(opts, path, {
      method: "PUT",
      headers: { "X-aliyun-ecs-metadata-token-ttl-seconds": String(TTL_S) },
    });
    return { token: plain(a, path), ttlS: TTL_S };
  });
  const get = async (key: string) => {
    const req = async (fresh: boolean) =>
      metaFetch(opts, META + key, {
        headers: { "X-aliyun-ecs-metadata-token": await tokens.get(fresh) },
      });
    const a = await req(false);
    return a.status === 401 || a.status === 403 ? req(true) : a;
  };

  return {
    provider: "alibaba",
    async detect(): Promise<HostFacts> {
      await tokens.get();
      const [type, region, zone, id] = await Promise.all([
        get("instance/instance-type"),
        get("region-id"),
        get("zone-id"),
        get("instance-id"),
      ]);
      return {
        provider: "alibaba",
        instanceType: plain(type, META + "instance/instance-type"),
        region: plain(region, META + "region-id"),
        zone: optionalPlain(zone, META + "zone-id"),
        instanceId: plain(id, META + "instance-id"),
      };
    },
    async notice(): Promise<Notice> {
      const path = META + "instance/spot/termination-time";
      const a = await get("instance/spot/termination-time");
      if (a.status === 404) return { pending: false };
      return { pending: true, timeSeconds: seconds(plain(ok(a, path), path), path) };
    },
  };
}
