import type { Db } from "@/lib/db.ts";
import { rebuildUsageDays } from "@/lib/ledger/usage-days.ts";

// A small ledger for the FOCUS export's tests: on-demand, spot and reserved hosts on two teams,
// one with an instance_id label and one without, an on-premises reserved host the catalogue has
// no on-demand price for, an unpriced hour, a partial hour, MIG and October rows that must not
// count. Amounts in micro-dollars.

const M = 1_000_000n;
export const OD_PRICE = 32_772_600n;
export const GCP_OD_PRICE = 3_673_000n;

/** What the November export must add up to. */
export const EXPECTED = {
  hourlyRows: 8,
  dailyRows: 5,
  effectiveMicros: 3n * OD_PRICE + 18n * M + 4n * M + 5n * M,
  billedMicros: 3n * OD_PRICE + 18n * M,
  researchEffectiveMicros: 3n * OD_PRICE + 18n * M,
};

const h = (iso: string) => new Date(`${iso}:00:00Z`);

type HostSeed = {
  key: "od" | "spot" | "res" | "onprem" | "unpriced";
  hostname: string;
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  team: string;
  project: string;
  owner?: string;
  labels: Record<string, string>;
};

export const HOSTS: HostSeed[] = [
  {
    key: "od",
    hostname: "gpu-od-1",
    provider: "aws",
    instanceType: "p4d.24xlarge",
    region: "us-east-1",
    pricingModel: "on_demand",
    team: "research",
    project: "llm",
    owner: "alice",
    labels: { instance_id: "i-0abc123def4567890", zone: "us-east-1a", env: "prod" },
  },
  {
    key: "spot",
    hostname: "gpu-spot-1",
    provider: "aws",
    instanceType: "p4d.24xlarge",
    region: "us-west-2",
    pricingModel: "spot",
    team: "research",
    project: "llm",
    labels: { env: '=HYPERLINK("http://x","y")' },
  },
  {
    key: "res",
    hostname: "gpu-res-1",
    provider: "gcp",
    instanceType: "a2-highgpu-1g",
    region: "us-central1",
    pricingModel: "reserved",
    team: "vision",
    project: "cv",
    labels: { instance_id: "8313458431234567890" },
  },
  {
    key: "onprem",
    hostname: "dgx-a100-01",
    provider: "onprem",
    instanceType: "dgx-a100",
    region: "unknown",
    pricingModel: "reserved",
    team: "vision",
    project: "cv",
    labels: {},
  },
  {
    key: "unpriced",
    hostname: "gpu-unpriced",
    provider: "aws",
    instanceType: "g9.mystery",
    region: "us-east-1",
    pricingModel: "on_demand",
    team: "vision",
    project: "cv",
    labels: {},
  },
];

async function prices(db: Db): Promise<void> {
  const row = (
    provider: string,
    instanceType: string,
    pricingModel: string,
    gpuCount: number,
    micros: bigint,
  ) => ({
    provider,
    instanceType,
    pricingModel,
    gpuModel: "A100",
    gpuCount,
    gpuMemoryBytes: 40n * 1024n ** 3n,
    usdPerHourMicros: micros,
    effectiveFrom: new Date("2024-01-01T00:00:00Z"),
    source: "test",
    sourceDate: "2024-01-01",
  });
  await db.priceEntry.createMany({
    data: [
      row("aws", "p4d.24xlarge", "on_demand", 8, OD_PRICE),
      row("aws", "p4d.24xlarge", "spot", 8, 12n * M),
      row("gcp", "a2-highgpu-1g", "on_demand", 1, GCP_OD_PRICE),
      row("gcp", "a2-highgpu-1g", "reserved", 1, 2n * M),
      row("onprem", "dgx-a100", "reserved", 8, 5n * M),
    ],
  });
}

/** Seeds the ledger; returns the host ids by key. */
export async function seedFocusLedger(db: Db): Promise<Record<HostSeed["key"], string>> {
  await prices(db);
  const ids = {} as Record<HostSeed["key"], string>;
  for (const s of HOSTS) {
    const { key, labels, owner, ...attrs } = s;
    const host = await db.host.create({
      data: { ...attrs, owner: owner ?? null, labels: JSON.stringify(labels) },
    });
    ids[key] = host.id;
  }
  const hour = (
    key: HostSeed["key"],
    at: Date,
    o: { cost: bigint; up?: number; gpuKey?: string; priced?: boolean; parentKey?: string },
    extra: { idle?: bigint; util?: number; gpuModel?: string } = {},
  ) => {
    const s = HOSTS.find((x) => x.key === key);
    if (!s) throw new Error(key);
    return {
      hourStart: at,
      hostId: ids[key],
      gpuKey: o.gpuKey ?? "host",
      gpuModel: extra.gpuModel ?? "A100",
      provider: s.provider,
      instanceType: s.instanceType,
      region: s.region,
      pricingModel: s.pricingModel,
      team: s.team,
      project: s.project,
      upSeconds: o.up ?? 3600,
      samples: 240,
      utilMean: extra.util ?? null,
      idleSeconds: 0,
      parentKey: o.parentKey ?? null,
      priced: o.priced ?? true,
      costMicros: o.cost,
      idleCostMicros: extra.idle ?? 0n,
      source: "test",
    };
  };
  const gpus = (key: HostSeed["key"], at: Date, n: number, share: bigint) =>
    Array.from({ length: n }, (_, i) => hour(key, at, { cost: share, gpuKey: `GPU-${key}-${i}` }));
  const od = ["2026-11-01T00", "2026-11-01T01", "2026-11-02T05"].map(h);
  await db.usageHour.createMany({
    data: [
      ...od.flatMap((at, i) => [
        hour("od", at, { cost: OD_PRICE }, { util: [0.5, 0.7, 0.9][i], idle: i === 1 ? M : 0n }),
        ...gpus("od", at, 8, OD_PRICE / 8n),
      ]),
      // a MIG slice of GPU 0: part of a GPU, never a GPU of its own
      hour("od", h("2026-11-01T00"), { cost: 0n, gpuKey: "GPU-od-0:gi1", parentKey: "GPU-od-0" }),
      hour("od", h("2026-10-31T23"), { cost: 7n }),
      hour("spot", h("2026-11-01T00"), { cost: 12n * M }),
      hour("spot", h("2026-11-01T01"), { cost: 6n * M, up: 1800 }),
      hour("res", h("2026-11-01T00"), { cost: 2n * M }, { util: 0.25 }),
      hour("res", h("2026-11-01T01"), { cost: 2n * M }, { util: 0.75 }),
      ...gpus("res", h("2026-11-01T00"), 1, 2n * M),
      ...gpus("res", h("2026-11-01T01"), 1, 2n * M),
      hour("onprem", h("2026-11-01T00"), { cost: 5n * M }),
      hour("unpriced", h("2026-11-01T00"), { cost: 0n, priced: false }),
    ],
  });
  await rebuildUsageDays(db); // the rows went in past the ledger's writer
  return ids;
}
