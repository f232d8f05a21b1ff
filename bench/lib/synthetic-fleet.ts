// A synthetic fleet of any size for the fleet API's aggregation, serialisation and rendering path
// (a real Prometheus at 100,000 GPUs does not fit these cores): hosts as the store would list
// them and a MetricsSource whose currentGpus() answers every GPU, values changing on each read.
import type { CurrentGpu, MetricsSource } from "../../lib/metrics/source.ts";
import type { HostLike, HostPrice } from "../../lib/fleet/summarize.ts";

const TEAMS = ["research", "training", "inference", "vision", "speech", "ads", "search", "infra"];
const PROVIDERS = ["aws", "gcp", "azure", "oci", "onprem"];
const MODELS = [
  ["NVIDIA H100 80GB HBM3", 80],
  ["NVIDIA A100-SXM4-80GB", 80],
  ["NVIDIA L4", 24],
  ["NVIDIA A10G", 24],
  ["NVIDIA H200", 141],
] as const;
const GIB = 1024 ** 3;

/** Deterministic pseudo-random 0–1 from integers (no state, so any read can be reproduced). */
function rand(...xs: number[]): number {
  let h = 2166136261;
  for (const x of xs) h = Math.imul(h ^ x, 16777619) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0x5bd1e995) >>> 0;
  return (h >>> 0) / 2 ** 32;
}

export interface SyntheticFleet {
  hosts: HostLike[];
  prices: Map<string, HostPrice>;
  source: MetricsSource;
}

export function syntheticFleet(gpus: number, perHost = 8): SyntheticFleet {
  const hostCount = Math.ceil(gpus / perHost);
  const now = new Date();
  const hosts: HostLike[] = Array.from({ length: hostCount }, (_, h) => {
    const provider = PROVIDERS[h % PROVIDERS.length] ?? "aws";
    const spot = rand(h, 1) < 0.15;
    return {
      id: `synth-host-${h}`,
      hostname: `synth-${String(h).padStart(6, "0")}`,
      provider,
      instanceType: `${provider}-8x-${h % MODELS.length}`,
      region: "region-1",
      pricingModel: spot ? "spot" : "on_demand",
      team: TEAMS[Math.floor(rand(h, 2) * TEAMS.length)] ?? "research",
      project: `p${h % 40}`,
      state: rand(h, 3) < 0.01 ? "down" : spot && rand(h, 4) < 0.03 ? "interrupted" : "up",
      lastSeen: now,
      interruptionPending: spot && rand(h, 5) < 0.02,
      interruptionAt: null,
      vgpuGuests: 0,
    };
  });
  const prices = new Map<string, HostPrice>(
    hosts.map((h, i) => [
      h.id,
      { perHourMicros: BigInt(8_000_000 + (i % 7) * 4_000_000), currency: "USD", gpuCount: 8 },
    ]),
  );
  let reads = 0;
  const currentGpus = async (): Promise<CurrentGpu[]> => {
    reads += 1;
    const out: CurrentGpu[] = [];
    const seen = new Date();
    for (let i = 0; i < gpus; i++) {
      const h = Math.floor(i / perHost);
      const host = hosts[h];
      if (!host) break;
      const [name, memGiB] = MODELS[h % MODELS.length] ?? MODELS[0];
      const reporting = host.state === "up" && rand(i, 6) > 0.005;
      const r = rand(i, reads);
      const util = r < 0.2 ? r / 10 : 0.3 + r * 0.7;
      out.push({
        hostId: host.id,
        hostname: host.hostname,
        uuid: `GPU-synth-${i}`,
        index: i % perHost,
        name,
        util: reporting ? util : null,
        memUsedBytes: reporting ? Math.round(memGiB * GIB * (r < 0.1 ? 0 : r)) : null,
        memTotalBytes: memGiB * GIB,
        powerWatts: reporting ? 100 + 500 * util : null,
        tempCelsius: reporting ? (rand(i, 7) < 0.002 ? 88 : 40 + 35 * util) : null,
        processes: reporting ? (r < 0.1 ? 0 : 1) : null,
        lastSeen: reporting ? seen : null,
        reporting,
        parentUuid: null,
        migProfile: null,
      });
    }
    return out;
  };
  const unused = () => Promise.reject(new Error("not used by the synthetic fleet"));
  return {
    hosts,
    prices,
    source: {
      mode: "prometheus",
      currentGpus,
      health: async () => ({ ok: true, lastSuccess: new Date(), error: null }),
      fleetSeries: unused,
      gpuSeries: unused,
      processes: unused,
      gpuWindow: unused,
      gpuShareAbove: unused,
      hourSamples: unused,
      ledgerStart: unused,
      workHours: unused,
    },
  };
}
