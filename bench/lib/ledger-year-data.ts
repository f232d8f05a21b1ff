// The generated fleet and ledger of `npm run bench:ledger-year`: hosts of 8 or 4 GPUs across AWS,
// GCP, Azure and on-prem, on demand, spot (2 hosts in 10) and reserved, eight teams; every
// GPU-hour written in SQL (INSERT … SELECT over generate_series, a day per statement) with the
// ledger's own arithmetic (the host's price split evenly over its GPUs, idle cost = share × idle
// time ÷ up time, the host row the sum of its GPUs), so re-pricing at the written prices changes
// nothing and a price change re-prices exactly the rows it should.
import pg from "pg";
import type { Db } from "../../lib/db.ts";

interface InstanceKind {
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  gpuModel: string;
  gpus: number;
  usdPerHourMicros: bigint;
}

const kind = (
  provider: string,
  instanceType: string,
  region: string,
  pricingModel: string,
  gpuModel: string,
  gpus: number,
  usdPerHourMicros: bigint,
): InstanceKind => ({
  provider,
  instanceType,
  region,
  pricingModel,
  gpuModel,
  gpus,
  usdPerHourMicros,
});

/** Host i gets KINDS[i % 10]: 8 in 10 hosts have 8 GPUs, 2 in 10 run on spot. */
export const KINDS: InstanceKind[] = [
  kind("aws", "p5.48xlarge", "us-east-1", "spot", "H100", 8, 39_328_000n),
  kind("aws", "p5.48xlarge", "us-east-1", "on_demand", "H100", 8, 98_320_000n),
  kind("aws", "p5.48xlarge", "us-east-1", "on_demand", "H100", 8, 98_320_000n),
  kind("aws", "p4d.24xlarge", "us-east-1", "on_demand", "A100", 8, 32_772_600n),
  kind("aws", "p4d.24xlarge", "us-east-1", "reserved", "A100", 8, 19_000_000n),
  kind("gcp", "a2-highgpu-4g", "us-central1", "on_demand", "A100", 4, 14_693_600n),
  kind("gcp", "a2-highgpu-4g", "us-central1", "spot", "A100", 4, 4_408_000n),
  kind("azure", "Standard_ND96asr_v4", "eastus", "on_demand", "A100", 8, 27_197_000n),
  kind("azure", "Standard_ND96asr_v4", "eastus", "on_demand", "A100", 8, 27_197_000n),
  kind("onprem", "dgx-h100", "dc-1", "reserved", "H100", 8, 20_500_000n),
];

/** Hosts, in KINDS order, until they hold `gpus` GPUs or more. */
export function fleetHosts(gpus: number): { index: number; kind: InstanceKind }[] {
  const hosts: { index: number; kind: InstanceKind }[] = [];
  for (let n = 0, i = 0; n < gpus; i++) {
    const k = KINDS[i % KINDS.length] as InstanceKind;
    hosts.push({ index: i, kind: k });
    n += k.gpus;
  }
  return hosts;
}

const uniq = (kinds: InstanceKind[]) => [
  ...new Map(kinds.map((k) => [`${k.provider}|${k.instanceType}|${k.pricingModel}`, k])).values(),
];

/** The catalogue, the hosts and their GPUs, through the app's client. */
export async function seedFleet(db: Db, gpus: number): Promise<number> {
  await db.priceEntry.createMany({
    data: uniq(KINDS).map((k) => ({
      provider: k.provider,
      instanceType: k.instanceType,
      region: "*",
      pricingModel: k.pricingModel,
      gpuModel: k.gpuModel,
      gpuCount: k.gpus,
      gpuMemoryBytes: 80n * 1024n ** 3n,
      usdPerHourMicros: k.usdPerHourMicros,
      effectiveFrom: new Date("2026-01-01T00:00:00Z"),
      source: "bench",
      sourceDate: "2026-01",
    })),
  });
  const hosts = fleetHosts(gpus);
  const team = (i: number) => `team-${(i * 5) % 8}`;
  await db.host.createMany({
    data: hosts.map(({ index: i, kind: k }) => ({
      id: `h${i}`,
      hostname: `gpu-${k.provider}-${String(i).padStart(5, "0")}`,
      provider: k.provider,
      instanceType: k.instanceType,
      region: k.region,
      pricingModel: k.pricingModel,
      team: team(i),
      project: `${team(i)}-p${i % 3}`,
      labels: JSON.stringify({ instance_id: `i-${i.toString(16).padStart(17, "0")}` }),
      state: "live",
    })),
  });
  const gpuRows = hosts.flatMap(({ index: i, kind: k }) =>
    Array.from({ length: k.gpus }, (_, g) => ({
      hostId: `h${i}`,
      uuid: `GPU-${i}-${g}`,
      index: g,
      name: k.gpuModel,
      memoryTotalBytes: 80n * 1024n ** 3n,
    })),
  );
  for (let i = 0; i < gpuRows.length; i += 5000)
    await db.gpu.createMany({ data: gpuRows.slice(i, i + 5000) });
  return hosts.length;
}

// A GPU is idle for a whole hour when (host + 3·gpu + hour/6) % 7 = 0: one GPU-hour in 7, in
// runs of 6 hours, never a whole host at once.
const IDLE = `((h.idx + 3 * g + t / 6) % 7 = 0)`;

/**
 * The ledger, one UTC day a statement, through `pg` (the bulk path: Prisma's createMany would take
 * hours for 14 million rows). Secondary indexes are dropped first and built once at the end.
 */
export async function generateLedger(
  url: string,
  from: Date,
  days: number,
  progress: (day: number, seconds: number) => void,
): Promise<{ rows: number; loadS: number; indexS: number }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`SET maintenance_work_mem = '512MB'`);
    await c.query(`CREATE TEMP TABLE bench_hosts AS
      SELECT substr(h."id", 2)::int AS idx, h."id", h."provider", h."instanceType", h."region",
             h."pricingModel", h."team", h."project", p."gpuModel", p."gpuCount" AS gpus,
             p."usdPerHourMicros" AS price
      FROM "Host" h JOIN "PriceEntry" p ON p."provider" = h."provider"
        AND p."instanceType" = h."instanceType" AND p."pricingModel" = h."pricingModel"`);
    const idx = await c.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'UsageHour'
         AND indexname <> 'UsageHour_pkey'`,
    );
    for (const i of idx.rows) await c.query(`DROP INDEX "${i.indexname}"`);
    await c.query(`ALTER TABLE "UsageHour" DROP CONSTRAINT "UsageHour_pkey"`);
    const started = performance.now();
    let rows = 0;
    for (let d = 0; d < days; d++) {
      const t0 = performance.now();
      const r = await c.query(
        `INSERT INTO "UsageHour" ("id", "hourStart", "hostId", "gpuKey", "gpuModel", "provider",
           "instanceType", "region", "pricingModel", "team", "project", "upSeconds", "samples",
           "utilMean", "idleSeconds", "idleHeldSeconds", "priced", "costMicros", "idleCostMicros",
           "currency", "source")
         SELECT 'u' || h.idx || '-' || t || '-' || g, $1::timestamp + t * interval '1 hour', h."id",
           CASE WHEN g = 0 THEN 'host' ELSE 'GPU-' || h.idx || '-' || (g - 1) END,
           h."gpuModel", h."provider", h."instanceType", h."region", h."pricingModel", h."team",
           h."project", 3600, 60,
           CASE WHEN g = 0 THEN 0.7 WHEN ${IDLE} THEN 0.01 ELSE 0.82 END,
           CASE WHEN g > 0 AND ${IDLE} THEN 3600 ELSE 0 END, 0, true,
           CASE WHEN g = 0 THEN h.price ELSE h.price / h.gpus END,
           CASE WHEN g > 0 THEN CASE WHEN ${IDLE} THEN h.price / h.gpus ELSE 0 END
             ELSE (h.price / h.gpus) * (SELECT count(*) FROM generate_series(1, h.gpus) AS k(g)
                                         WHERE ${IDLE}) END,
           'USD', 'bench'
         FROM generate_series($2::int, $2::int + 23) AS t
         CROSS JOIN bench_hosts AS h
         CROSS JOIN LATERAL generate_series(0, h.gpus) AS g`,
        [from.toISOString().slice(0, 19).replace("T", " "), d * 24],
      );
      rows += r.rowCount ?? 0;
      progress(d, (performance.now() - t0) / 1000);
    }
    const loadS = (performance.now() - started) / 1000;
    const t1 = performance.now();
    await c.query(`ALTER TABLE "UsageHour" ADD CONSTRAINT "UsageHour_pkey" PRIMARY KEY ("id")`);
    for (const i of idx.rows) await c.query(i.indexdef);
    await c.query(`VACUUM ANALYZE "UsageHour"`);
    return { rows, loadS, indexS: (performance.now() - t1) / 1000 };
  } finally {
    await c.end();
  }
}
