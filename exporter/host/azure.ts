// Azure Instance Metadata Service: GET with the header Metadata: true and an api-version; it
// refuses requests without the header (HTTP 400):
//   https://learn.microsoft.com/azure/virtual-machines/instance-metadata-service
// - /metadata/instance?api-version=2021-02-01 → JSON; compute.vmSize, compute.location,
//   compute.zone ("1"; reported as <location>-<zone>, as Kubernetes labels Azure zones),
//   compute.vmId, compute.priority (Regular | Spot | Low), compute.name
// - Scheduled Events /metadata/scheduledevents?api-version=2020-07-01 → {"Events":[{"EventType":
//   "Preempt","Resources":["vm-name"],"NotBefore":"Mon, 19 Sep 2016 18:29:47 GMT",…}]}:
//   https://learn.microsoft.com/azure/virtual-machines/linux/scheduled-events

import { json, metaFetch, seconds } from "./fetch.ts";
import type { ClientOptions, HostFacts, Notice, ProviderClient } from "./types.ts";

const INSTANCE = "/metadata/instance?api-version=2021-02-01";
const EVENTS = "/metadata/scheduledevents?api-version=2020-07-01";
const PLAIN = /^[\x21-\x7e]{1,256}$/;

function str(obj: Record<string, unknown>, key: string, path: string): string | undefined {
  const v = obj[key];
  if (v === undefined || v === "") return undefined;
  if (typeof v !== "string" || !PLAIN.test(v)) {
    throw new Error(`${path}: compute.${key} is not a plain value`);
  }
  return v;
}

export function azureClient(opts: ClientOptions): ProviderClient {
  const get = (path: string) => metaFetch(opts, path, { headers: { Metadata: "true" } });
  let vmName: string | undefined;

  return {
    provider: "azure",
    async detect(): Promise<HostFacts> {
      const doc = json(await get(INSTANCE), INSTANCE) as { compute?: unknown } | null;
      const c = doc?.compute;
      if (typeof c !== "object" || c === null) throw new Error(`${INSTANCE}: no compute object`);
      const compute = c as Record<string, unknown>;
      const size = str(compute, "vmSize", INSTANCE);
      const id = str(compute, "vmId", INSTANCE);
      if (!size || !id) throw new Error(`${INSTANCE}: compute.vmSize or compute.vmId missing`);
      const location = str(compute, "location", INSTANCE);
      const zone = str(compute, "zone", INSTANCE);
      const priority = str(compute, "priority", INSTANCE)?.toLowerCase();
      vmName = str(compute, "name", INSTANCE);
      return {
        provider: "azure",
        instanceType: size,
        instanceId: id,
        region: location,
        zone: zone && location ? `${location}-${zone}` : zone,
        pricingModel:
          priority === "spot" || priority === "low"
            ? "spot"
            : priority === "regular"
              ? "on_demand"
              : undefined,
      };
    },
    async notice(): Promise<Notice> {
      const doc = json(await get(EVENTS), EVENTS) as { Events?: unknown } | null;
      if (!Array.isArray(doc?.Events)) throw new Error(`${EVENTS}: no Events array`);
      for (const e of doc.Events as Record<string, unknown>[]) {
        if (e?.EventType !== "Preempt") continue;
        // events reach every VM of an availability set: only ours counts
        const res = Array.isArray(e.Resources) ? (e.Resources as unknown[]) : [];
        if (vmName !== undefined && res.length > 0 && !res.includes(vmName)) continue;
        const at = typeof e.NotBefore === "string" && e.NotBefore !== "" ? e.NotBefore : undefined;
        return { pending: true, timeSeconds: at ? seconds(at, EVENTS) : undefined };
      }
      return { pending: false };
    },
  };
}
