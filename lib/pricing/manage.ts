import "server-only";
import { ConflictError, NotFoundError, parseOrThrow } from "../core/errors.ts";
import { formatMicros, parseMicros } from "../core/money.ts";
import { db as defaultDb, type Db } from "../db.ts";
import { isUniqueViolation } from "../core/store-errors.ts";
import type { PriceEntry } from "../generated/prisma/client.ts";
import {
  priceInputSchema,
  type PriceInput,
  type PriceUpdate,
  type PricingRowDto,
} from "../zod/schemas/pricing.ts";

// Finance adds, changes and retires catalogue rows (settings page and /api/pricing). A change
// makes the row the user's own (origin "user"), so no release overwrites it; retiring keeps the
// row for the record and stops it pricing anything. Neither re-prices ledger hours already
// written: that is an explicit, previewed step (lib/ledger/reprice.ts).

const GIB = 1024 ** 3;

export function toPricingDto(r: PriceEntry): PricingRowDto {
  return {
    id: r.id,
    provider: r.provider,
    instanceType: r.instanceType,
    region: r.region,
    pricingModel: r.pricingModel,
    gpuModel: r.gpuModel,
    gpuCount: r.gpuCount,
    gpuMemoryGiB: Number(r.gpuMemoryBytes) / GIB,
    usdPerHourMicros: r.usdPerHourMicros.toString(),
    usdPerHour: formatMicros(r.usdPerHourMicros),
    currency: r.currency,
    localPerHour: r.localPerHourMicros === null ? null : formatMicros(r.localPerHourMicros),
    effectiveFrom: r.effectiveFrom.toISOString(),
    source: r.source,
    sourceDate: r.sourceDate,
    note: r.note,
    origin: r.origin === "shipped" ? "shipped" : "user",
    updatedBy: r.updatedBy,
    updatedAt: r.updatedAt.toISOString(),
    retiredAt: r.retiredAt?.toISOString() ?? null,
    retiredBy: r.retiredBy,
    site: r.site,
  };
}

export async function listPrices(
  opts: { includeRetired?: boolean } = {},
  client: Db = defaultDb,
): Promise<PricingRowDto[]> {
  const rows = await client.priceEntry.findMany({
    where: opts.includeRetired ? undefined : { retiredAt: null },
    orderBy: [{ provider: "asc" }, { instanceType: "asc" }, { effectiveFrom: "asc" }],
  });
  return rows.map(toPricingDto);
}

function toColumns(p: PriceInput) {
  return {
    provider: p.provider,
    instanceType: p.instanceType,
    region: p.region,
    pricingModel: p.pricingModel,
    gpuModel: p.gpuModel,
    gpuCount: p.gpuCount,
    gpuMemoryBytes: BigInt(Math.round(p.gpuMemoryGiB * GIB)),
    usdPerHourMicros: parseMicros(p.usdPerHour),
    currency: "USD",
    effectiveFrom: p.effectiveFrom,
    source: p.source,
    sourceDate: p.sourceDate,
    note: p.note,
  };
}

function duplicate(p: PriceInput): ConflictError {
  const region = p.region === "*" ? "any region" : p.region;
  return new ConflictError(
    `a ${p.pricingModel} price for ${p.provider} ${p.instanceType} in ${region} from ` +
      `${p.effectiveFrom.toISOString().slice(0, 10)} already exists: edit it, or give a later ` +
      "effective date for a price change",
  );
}

async function found(client: Db, id: string): Promise<PriceEntry> {
  const row = await client.priceEntry.findUnique({ where: { id } });
  if (!row) throw new NotFoundError(`price ${id}`);
  return row;
}

export async function createPrice(
  input: PriceInput,
  by: string,
  client: Db = defaultDb,
): Promise<PricingRowDto> {
  try {
    const row = await client.priceEntry.create({
      data: { ...toColumns(input), origin: "user", updatedBy: by },
    });
    return toPricingDto(row);
  } catch (e) {
    if (isUniqueViolation(e)) throw duplicate(input);
    throw e;
  }
}

export async function updatePrice(
  id: string,
  patch: PriceUpdate,
  by: string,
  client: Db = defaultDb,
): Promise<{ before: PricingRowDto; after: PricingRowDto }> {
  const row = await found(client, id);
  if (row.retiredAt) throw new ConflictError("this price is retired: add a new row instead");
  if (row.currency !== "USD") {
    // the form and API take USD; changing this row here would silently drop its CNY price
    throw new ConflictError(
      `this price is kept in ${row.currency}: retire it and add a new row, or add an exchange rate`,
    );
  }
  const before = toPricingDto(row);
  const current = {
    provider: before.provider,
    instanceType: before.instanceType,
    region: before.region,
    pricingModel: before.pricingModel,
    gpuModel: before.gpuModel,
    gpuCount: before.gpuCount,
    gpuMemoryGiB: before.gpuMemoryGiB,
    usdPerHour: before.usdPerHour,
    effectiveFrom: before.effectiveFrom,
    source: before.source,
    sourceDate: before.sourceDate,
    note: before.note,
  };
  const next = parseOrThrow(priceInputSchema, { ...current, ...patch }, "price");
  try {
    const saved = await client.priceEntry.update({
      where: { id },
      data: { ...toColumns(next), origin: "user", updatedBy: by },
    });
    return { before, after: toPricingDto(saved) };
  } catch (e) {
    if (isUniqueViolation(e)) throw duplicate(next);
    throw e;
  }
}

export async function retirePrice(
  id: string,
  by: string,
  client: Db = defaultDb,
): Promise<PricingRowDto> {
  await found(client, id);
  const done = await client.priceEntry.updateMany({
    where: { id, retiredAt: null },
    data: { retiredAt: new Date(), retiredBy: by },
  });
  if (done.count === 0) throw new ConflictError("this price is already retired");
  return toPricingDto(await found(client, id));
}
