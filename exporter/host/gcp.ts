// Google Compute Engine metadata server: GET /computeMetadata/v1/instance/... with the header
// Metadata-Flavor: Google (requests without it are refused, and every answer carries it back):
//   https://cloud.google.com/compute/docs/metadata/querying-metadata
// - instance/machine-type "projects/NUM/machineTypes/a2-highgpu-1g" and instance/zone
//   "projects/NUM/zones/us-central1-a" come back as paths: the last segment is the value, and
//   the region is the zone without its "-a" suffix; instance/id is numeric;
// - instance/scheduling/preemptible TRUE|FALSE, instance/scheduling/provisioning-model
//   SPOT|STANDARD (read when present), instance/preempted TRUE once preemption began:
//   https://cloud.google.com/compute/docs/metadata/predefined-metadata-keys
//   https://cloud.google.com/compute/docs/instances/create-use-preemptible#detecting_if_an_instance_was_preempted

import { metaFetch, ok, optionalPlain, plain, type Answer } from "./fetch.ts";
import type { ClientOptions, HostFacts, Notice, ProviderClient } from "./types.ts";

const INSTANCE = "/computeMetadata/v1/instance/";

function lastSegment(value: string, path: string, kind: string): string {
  const m = new RegExp(`^projects/[^/]+/${kind}/([^/]+)$`).exec(value);
  if (!m?.[1]) throw new Error(`${path}: want projects/<n>/${kind}/<name>, got ${value}`);
  return m[1];
}

function regionOf(zone: string): string | undefined {
  return /^(.+)-[a-z]$/.exec(zone)?.[1];
}

export function gcpClient(opts: ClientOptions): ProviderClient {
  const get = async (key: string): Promise<Answer> => {
    const a = await metaFetch(opts, INSTANCE + key, { headers: { "Metadata-Flavor": "Google" } });
    // a server that does not answer with the flavour header is not Google's metadata server
    if (a.status === 200 && a.headers.get("metadata-flavor") !== "Google") {
      throw new Error(`${INSTANCE + key}: answer lacks Metadata-Flavor: Google`);
    }
    return a;
  };
  const flag = (a: Answer, key: string) => optionalPlain(a, INSTANCE + key)?.toUpperCase();

  return {
    provider: "gcp",
    async detect(): Promise<HostFacts> {
      const [type, zone, id, preemptible, model] = await Promise.all([
        get("machine-type"),
        get("zone"),
        get("id"),
        get("scheduling/preemptible"),
        get("scheduling/provisioning-model"),
      ]);
      const zoneName = lastSegment(plain(zone, INSTANCE + "zone"), INSTANCE + "zone", "zones");
      const p = flag(preemptible, "scheduling/preemptible");
      const m = flag(model, "scheduling/provisioning-model");
      const spot = p === "TRUE" || m === "SPOT";
      const known = p === "FALSE" || m === "STANDARD";
      return {
        provider: "gcp",
        instanceType: lastSegment(
          plain(type, INSTANCE + "machine-type"),
          INSTANCE + "machine-type",
          "machineTypes",
        ),
        zone: zoneName,
        region: regionOf(zoneName),
        instanceId: plain(id, INSTANCE + "id"),
        pricingModel: spot ? "spot" : known ? "on_demand" : undefined,
      };
    },
    async notice(): Promise<Notice> {
      const path = INSTANCE + "preempted";
      const value = plain(ok(await get("preempted"), path), path).toUpperCase();
      if (value !== "TRUE" && value !== "FALSE") throw new Error(`${path}: want TRUE or FALSE`);
      return { pending: value === "TRUE" }; // GCP announces no time: the poller notes when seen
    },
  };
}
