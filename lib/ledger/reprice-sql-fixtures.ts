// The ledger reprice-sql.test.ts re-prices both ways (test-only; nothing in the app imports this):
// the ledger job's own writer over HOSTS for HOURS hours, then a catalogue change.
import { expect } from "vitest";
import type { Db } from "@/lib/db.ts";
import type { GpuSample, HostSample, SamplesByHost } from "@/lib/metrics/source.ts";
import { retirePrice, updatePrice } from "@/lib/pricing/manage.ts";
import { installShippedCatalogue } from "@/lib/pricing/seed.ts";
import { gpu, GIB } from "./ledger-fixtures.ts";
import { computeLedgerHour, writeLedgerHour } from "./job.ts";
import { applyReprice, previewReprice } from "./reprice.ts";
import { HOUR_MS } from "../core/time.ts";

export const MONTH = "2026-10";
export const NOW = new Date("2026-10-28T00:00:00Z");
export const FIRST = Date.parse("2026-10-10T00:00:00Z");
export const HOURS = 30;

interface HostSpec {
  id: string;
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  labels?: Record<string, string>;
  zone?: string;
  gpus: (s: number, hour: number) => GpuSample[];
  /** up for the first `upTo` seconds of odd hours */
  upTo?: number;
}

const busy = (uuid: string) => gpu(uuid);
const idle = (uuid: string) => gpu(uuid, { util: 0, processes: 0, memUsedBytes: 0 });
const mig = (): GpuSample[] => [
  gpu("GPU-m", { memTotalBytes: 40 * GIB }),
  ...[1, 2, 3].map((k) =>
    gpu(`MIG-${k}`, {
      util: null,
      processes: k === 2 ? 0 : 1,
      memUsedBytes: 0,
      memTotalBytes: k * 5 * GIB,
      migParentUuid: "GPU-m",
      migFraction: k / 7,
    }),
  ),
];

export const tc = (instanceType: string, pricingModel: string, over: Partial<HostSpec> = {}) => ({
  provider: "testcloud",
  instanceType,
  region: "r1",
  pricingModel,
  ...over,
});

export const HOSTS: HostSpec[] = [
  {
    id: "h-cn",
    ...tc("GN7.2XLARGE32", "on_demand", { provider: "tencent" }),
    region: "ap-guangzhou",
    labels: { cloud_account: "1250000000" },
    gpus: () => [busy("GPU-cn")],
  },
  {
    id: "h-intl",
    ...tc("GN7.2XLARGE32", "on_demand", { provider: "tencent" }),
    region: "ap-guangzhou",
    labels: { cloud_account: "1250000001" },
    gpus: () => [busy("GPU-intl")],
  },
  {
    id: "h-od",
    ...tc("tc.period", "on_demand"),
    gpus: (s, h) => [busy("GPU-b"), h % 3 === 0 ? idle("GPU-a") : busy("GPU-a"), busy("GPU-C")],
    upTo: 1800,
  },
  {
    id: "h-spot",
    ...tc("tc.period", "spot"),
    zone: "r1a",
    gpus: () => [busy("gpu-x"), idle("GPU-Y")],
  },
  { id: "h-res", ...tc("tc.period", "reserved"), gpus: () => [busy("GPU-r1"), busy("GPU-r2")] },
  { id: "h-none", ...tc("tc.none", "on_demand"), gpus: () => [busy("GPU-n1"), idle("GPU-n2")] },
  { id: "h-mig", ...tc("tc.period", "on_demand"), gpus: () => mig() },
  { id: "h-bill", ...tc("tc.period", "on_demand"), gpus: () => [busy("GPU-q1"), busy("GPU-q2")] },
];

function samples(spec: HostSpec, hourStart: Date, hour: number): HostSample[] {
  return Array.from({ length: 60 }, (_, i) => {
    const s = i * 60;
    const t = new Date(hourStart.getTime() + s * 1000);
    const up = spec.upTo === undefined || hour % 2 === 0 || s < spec.upTo;
    return up ? { t, up: true, gpus: spec.gpus(s, hour) } : { t, up: false, gpus: [] };
  });
}

const price = (pricingModel: string, usdPerHourMicros: bigint, effectiveFrom: string) => ({
  provider: "testcloud",
  instanceType: "tc.period",
  region: "*",
  pricingModel,
  gpuModel: "A100",
  gpuCount: 3,
  gpuMemoryBytes: 40n * BigInt(GIB),
  usdPerHourMicros,
  effectiveFrom: new Date(effectiveFrom),
  source: "test",
  sourceDate: "2026-10",
  origin: "user",
});

/** A store with the ledger of HOSTS over HOURS hours, some of them then on actuals. */
export async function seed(db: Db): Promise<void> {
  await installShippedCatalogue(db);
  await db.appSetting.create({
    data: { key: "tencentChinaSiteAccounts", value: JSON.stringify(["1250000000"]) },
  });
  await db.priceEntry.createMany({
    data: [
      price("on_demand", 10_000_001n, "2026-01-01T00:00:00Z"),
      price("on_demand", 11_000_000n, "2026-10-10T12:00:00Z"),
      price("spot", 3_333_333n, "2026-01-01T00:00:00Z"),
      price("reserved", 6_000_000n, "2026-01-01T00:00:00Z"),
    ].map((p, i) => ({ ...p, id: `p-${i}` })),
  });
  for (const h of HOSTS) {
    await db.host.create({
      data: {
        id: h.id,
        hostname: h.id,
        provider: h.provider,
        instanceType: h.instanceType,
        region: h.region,
        pricingModel: h.pricingModel,
        labels: JSON.stringify(h.labels ?? {}),
        zone: h.zone ?? null,
      },
    });
  }
  for (let i = 0; i < HOURS; i++) {
    const hourStart = new Date(FIRST + i * HOUR_MS);
    const byHost: SamplesByHost = new Map(HOSTS.map((h) => [h.id, samples(h, hourStart, i)]));
    await writeLedgerHour(db, hourStart, await computeLedgerHour(db, hourStart, byHost), "test");
  }
  // two holders of one GPU-hour, and the bills' actuals for some of h-bill's hours
  const held = await db.usageHour.findFirstOrThrow({
    where: { hostId: "h-od", gpuKey: "GPU-a", hourStart: new Date(FIRST) },
  });
  await db.usageHourHolder.createMany({
    data: [
      ["alice", 600_000],
      ["bob", 400_000],
    ].map(([user, sharePpm]) => ({
      hourStart: held.hourStart,
      hostId: "h-od",
      gpuKey: "GPU-a",
      holderKey: `${user}|process:1`,
      user: String(user),
      kind: "process",
      ref: "1",
      team: "ml",
      sharePpm: Number(sharePpm),
      memByteSeconds: 1n,
      costMicros: (held.costMicros * BigInt(sharePpm ?? 0)) / 1_000_000n,
      idleSeconds: 0,
      idleCostMicros: 0n,
    })),
  });
  const p = await previewReprice({ month: MONTH, now: NOW }, db);
  const actualOf = (hostId: string, hourStart: Date) =>
    hostId === "h-bill" && hourStart.getTime() < FIRST + 12 * HOUR_MS ? 9_876_543n : undefined;
  const bill = { kind: "bill" as const, actualOf, imports: ["test"] };
  const b = await previewReprice({ month: MONTH, now: NOW, source: bill }, db);
  expect(b.hours.actualAfter).toBe(12);
  await applyReprice(
    { month: MONTH, now: NOW, by: "fin", expectedNewTotalMicros: b.newTotalMicros, source: bill },
    db,
  );
  expect(p.hours.changed).toBe(0); // the ledger was written at the prices in force
}

/** The catalogue change re-priced: every period row, a new period, a retired row, a new type. */
export async function changePrices(db: Db): Promise<void> {
  await updatePrice("p-0", { usdPerHour: "10.333334" }, "fin", db);
  await updatePrice("p-2", { usdPerHour: "2.000001" }, "fin", db);
  await retirePrice("p-3", "fin", db);
  await db.priceEntry.createMany({
    data: [
      price("on_demand", 12_345_679n, "2026-10-11T03:00:00Z"),
      price("reserved", 5_000_000n, "2026-10-10T18:00:00Z"),
      { ...price("on_demand", 7_777_777n, "2026-10-10T06:00:00Z"), instanceType: "tc.none" },
    ],
  });
}
