// Tencent Cloud CVM instance metadata at metadata.tencentyun.com: plain GETs, no header or token:
//   https://www.tencentcloud.com/document/product/213/4934 (categories)
// - /latest/meta-data/{instance/instance-type,placement/region,placement/zone,instance-id}
// - /latest/meta-data/payment/charge-type ("instance billing plan": SPOTPAID, POSTPAID_BY_HOUR,
//   PREPAID (monthly, reported as reserved), CDHPAID) gives the pricing model where present;
// - /latest/meta-data/spot/termination-time: 404 unless a reclaim is scheduled, then the time
//   in UTC+8 such as "2018-08-18 12:05:33":
//   https://www.tencentcloud.com/document/product/213/32487

import { metaFetch, ok, optionalPlain, plain } from "./fetch.ts";
import type { ClientOptions, HostFacts, Notice, ProviderClient } from "./types.ts";
import type { PricingModel } from "../config.ts";

const META = "/latest/meta-data/";
const CHARGE: Record<string, PricingModel> = {
  SPOTPAID: "spot",
  POSTPAID_BY_HOUR: "on_demand",
  PREPAID: "reserved",
};

/** "2018-08-18 12:05:33" in UTC+8 (or an ISO time, if it ever sends one) → unix seconds. */
export function tencentTime(text: string, path: string): number {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})$/.exec(text.trim());
  const ms = m ? Date.parse(`${m[1]}T${m[2]}+08:00`) : Date.parse(text);
  if (!Number.isFinite(ms)) throw new Error(`${path}: not a time (${JSON.stringify(text)})`);
  return Math.floor(ms / 1000);
}

export function tencentClient(opts: ClientOptions): ProviderClient {
  const get = (key: string) => metaFetch(opts, META + key);
  return {
    provider: "tencent",
    async detect(): Promise<HostFacts> {
      const [type, region, zone, id, charge] = await Promise.all([
        get("instance/instance-type"),
        get("placement/region"),
        get("placement/zone"),
        get("instance-id"),
        get("payment/charge-type"),
      ]);
      const plan = optionalPlain(charge, META + "payment/charge-type");
      return {
        provider: "tencent",
        instanceType: plain(type, META + "instance/instance-type"),
        region: plain(region, META + "placement/region"),
        zone: optionalPlain(zone, META + "placement/zone"),
        instanceId: plain(id, META + "instance-id"),
        pricingModel: plan === undefined ? undefined : CHARGE[plan],
      };
    },
    async notice(): Promise<Notice> {
      const path = META + "spot/termination-time";
      const a = await get("spot/termination-time");
      if (a.status === 404) return { pending: false };
      const text = ok(a, path).text.trim();
      if (text === "" || text.length > 64) throw new Error(`${path}: not a time`);
      return { pending: true, timeSeconds: tencentTime(text, path) };
    },
  };
}
