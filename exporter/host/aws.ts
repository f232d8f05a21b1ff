// AWS EC2 instance metadata, IMDSv2 only (a session token on every request).
// - token: PUT /latest/api/token with X-aws-ec2-metadata-token-ttl-seconds (1-21600), then the
//   token in X-aws-ec2-metadata-token:
//   https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/configuring-instance-metadata-service.html
// - /latest/meta-data/{instance-type,instance-id,placement/region,placement/availability-zone,
//   instance-life-cycle} ("spot" | "on-demand" | "scheduled"):
//   https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/instancedata-data-categories.html
// - /latest/meta-data/spot/instance-action: 404 until an interruption is scheduled, then
//   {"action":"terminate|stop|hibernate","time":"2017-09-18T08:22:00Z"}, checked every 5 s:
//   https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-instance-termination-notices.html

import { json, metaFetch, ok, optionalPlain, plain, seconds, tokenCache } from "./fetch.ts";
import type { ClientOptions, HostFacts, Notice, ProviderClient } from "./types.ts";

const TTL_S = 21600;
const META = "/latest/meta-data/";

export function awsClient(opts: ClientOptions): ProviderClient {
  const tokens = tokenCache(opts, async () => {
    const path = "/latest/api/token";
    const a = await metaFetch(opts, path, {
      method: "PUT",
      headers: { "X-aws-ec2-metadata-token-ttl-seconds": String(TTL_S) },
    });
    return { token: plain(a, path), ttlS: TTL_S };
  });

  const get = async (key: string) => {
    const path = META + key;
    const req = async (fresh: boolean) =>
      metaFetch(opts, path, {
        headers: { "X-aws-ec2-metadata-token": await tokens.get(fresh) },
      });
    const a = await req(false);
    return a.status === 401 ? req(true) : a; // the token expired early: one fresh try
  };

  return {
    provider: "aws",
    async detect(): Promise<HostFacts> {
      await tokens.get(); // one PUT first, so the GETs below share it
      const [type, id, region, zone, life] = await Promise.all([
        get("instance-type"),
        get("instance-id"),
        get("placement/region"),
        get("placement/availability-zone"),
        get("instance-life-cycle"),
      ]);
      const lifeCycle = optionalPlain(life, META + "instance-life-cycle");
      return {
        provider: "aws",
        instanceType: plain(type, META + "instance-type"),
        instanceId: plain(id, META + "instance-id"),
        region: optionalPlain(region, META + "placement/region"),
        zone: optionalPlain(zone, META + "placement/availability-zone"),
        pricingModel:
          lifeCycle === "spot" ? "spot" : lifeCycle === "on-demand" ? "on_demand" : undefined,
      };
    },
    async notice(): Promise<Notice> {
      const path = META + "spot/instance-action";
      const a = await get("spot/instance-action");
      if (a.status === 404) return { pending: false };
      const body = json(ok(a, path), path) as { action?: unknown; time?: unknown } | null;
      if (typeof body?.action !== "string" || typeof body.time !== "string") {
        throw new Error(`${path}: want {"action":…,"time":…}`);
      }
      return { pending: true, timeSeconds: seconds(body.time, path) };
    },
  };
}
