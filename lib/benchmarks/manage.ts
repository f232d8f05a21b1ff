import "server-only";
import { ConflictError, NotFoundError } from "../core/errors.ts";
import { isUniqueViolation } from "../core/store-errors.ts";
import { db as defaultDb, type Db } from "../db.ts";
import type { BenchmarkResult } from "../generated/prisma/client.ts";
import { rowsInForce } from "../pricing/in-force.ts";
import { loadPriceRows } from "../pricing/catalogue-db.ts";
import type { PriceRow } from "../pricing/types.ts";
import { benchmarkCosts } from "./costs.ts";
import type { BenchmarkDto, BenchmarkImportResult, BenchmarkInput } from "./schema.ts";

// Benchmark results per instance type: operators and finance add them (form, API, CSV), the
// release ships a few published figures (origin "shipped", see shipped.ts). Each answer carries the
// cost per unit of work at the catalogue rows in force now.

export function toBenchmarkDto(r: BenchmarkResult, inForce: readonly PriceRow[]): BenchmarkDto {
  return {
    id: r.id,
    provider: r.provider,
    instanceType: r.instanceType,
    workload: r.workload,
    unit: r.unit,
    value: r.value,
    source: r.source,
    sourceDate: r.sourceDate,
    note: r.note,
    origin: r.origin === "shipped" ? "shipped" : "user",
    updatedBy: r.updatedBy,
    updatedAt: r.updatedAt.toISOString(),
    costs: benchmarkCosts(r, inForce),
  };
}

export async function listBenchmarks(
  opts: { now?: Date; client?: Db; priceRows?: readonly PriceRow[] } = {},
): Promise<BenchmarkDto[]> {
  const client = opts.client ?? defaultDb;
  const now = opts.now ?? new Date();
  const [rows, prices] = await Promise.all([
    client.benchmarkResult.findMany({
      orderBy: [{ provider: "asc" }, { instanceType: "asc" }, { workload: "asc" }],
    }),
    opts.priceRows ? Promise.resolve(opts.priceRows) : loadPriceRows(client),
  ]);
  const inForce = rowsInForce(prices, now);
  return rows.map((r) => toBenchmarkDto(r, inForce));
}

const uniqueKey = (b: BenchmarkInput) => ({
  provider_instanceType_workload_unit_source: {
    provider: b.provider,
    instanceType: b.instanceType,
    workload: b.workload,
    unit: b.unit,
    source: b.source,
  },
});

export async function createBenchmark(
  input: BenchmarkInput,
  by: string,
  client: Db = defaultDb,
): Promise<BenchmarkDto> {
  try {
    const row = await client.benchmarkResult.create({
      data: { ...input, origin: "user", updatedBy: by },
    });
    return toBenchmarkDto(row, rowsInForce(await loadPriceRows(client), new Date()));
  } catch (e) {
    if (isUniqueViolation(e)) {
      throw new ConflictError(
        `a result for ${input.provider} ${input.instanceType}, "${input.workload}" in ${input.unit} from this source already exists`,
      );
    }
    throw e;
  }
}

/** Deletes a result a person added; shipped (published) figures are reinstalled by every start,
 * so deleting one is refused rather than silently undone. */
export async function deleteBenchmark(id: string, client: Db = defaultDb): Promise<BenchmarkDto> {
  const row = await client.benchmarkResult.findUnique({ where: { id } });
  if (!row) throw new NotFoundError(`benchmark result ${id}`);
  if (row.origin === "shipped") {
    throw new ConflictError(
      "a shipped benchmark result (a published figure) is reinstalled on every start and cannot be deleted; add your own measurement instead",
    );
  }
  await client.benchmarkResult.delete({ where: { id } });
  return toBenchmarkDto(row, []);
}

const describe = (b: BenchmarkInput) =>
  `${b.provider} ${b.instanceType}, "${b.workload}" in ${b.unit} from ${b.source}`;

/**
 * All rows in one transaction: added, or (same provider, type, workload, unit and source)
 * updated. A row that would replace a shipped (published) figure refuses the whole file, as
 * create and delete refuse to touch one: a measurement of one's own gets its own source.
 */
export async function importBenchmarks(
  rows: readonly BenchmarkInput[],
  by: string,
  client: Db = defaultDb,
): Promise<BenchmarkImportResult> {
  return client.$transaction(async (tx) => {
    let added = 0;
    let updated = 0;
    for (const r of rows) {
      const existing = await tx.benchmarkResult.findUnique({ where: uniqueKey(r) });
      if (existing?.origin === "shipped") {
        throw new ConflictError(
          `${describe(r)} is a shipped benchmark result (a published figure) and cannot be replaced; nothing was imported. Give your own measurement its own source.`,
        );
      }
      if (existing) {
        await tx.benchmarkResult.update({
          where: { id: existing.id },
          data: {
            value: r.value,
            sourceDate: r.sourceDate,
            note: r.note,
            origin: "user",
            updatedBy: by,
          },
        });
        updated++;
      } else {
        await tx.benchmarkResult.create({ data: { ...r, origin: "user", updatedBy: by } });
        added++;
      }
    }
    return { added, updated, lines: rows.length };
  });
}
