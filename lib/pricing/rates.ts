import "server-only";
import { ConflictError, NotFoundError } from "../core/errors.ts";
import { isUniqueViolation } from "../core/store-errors.ts";
import { db as defaultDb, type Db } from "../db.ts";
import type { ExchangeRate } from "../generated/prisma/client.ts";
import type { ExchangeRateDto, ExchangeRateInput } from "../zod/schemas/exchange-rate.ts";
import { parseRate, type ExchangeRateRow } from "./fx.ts";
import { SHIPPED_RATES } from "./rates-catalogue.ts";
import type { InstallResult } from "./types.ts";

// Exchange rates in the store, with the price catalogue's origin rules: shipped rows are
// installed on every start and a later release may correct one in place (same currency and
// effectiveFrom); a row a person added or changed ("user") is never touched by a release.
// A rate change is a new row with a later effectiveFrom, so past hours keep the rate of their day.

export function toRateDto(r: ExchangeRate): ExchangeRateDto {
  return {
    id: r.id,
    currency: r.currency,
    usdPerUnit: r.usdPerUnit,
    effectiveFrom: r.effectiveFrom.toISOString(),
    source: r.source,
    sourceDate: r.sourceDate,
    origin: r.origin === "shipped" ? "shipped" : "user",
    updatedBy: r.updatedBy,
  };
}

/** Every rate, by currency then date (the table is small: a few rows per currency per year). */
export async function loadRates(client: Db = defaultDb): Promise<ExchangeRateRow[]> {
  return client.exchangeRate.findMany({
    orderBy: [{ currency: "asc" }, { effectiveFrom: "asc" }],
    select: {
      currency: true,
      usdPerUnit: true,
      effectiveFrom: true,
      source: true,
      sourceDate: true,
    },
  });
}

export async function listRates(client: Db = defaultDb): Promise<ExchangeRateDto[]> {
  const rows = await client.exchangeRate.findMany({
    orderBy: [{ currency: "asc" }, { effectiveFrom: "desc" }],
  });
  return rows.map(toRateDto);
}

/** Adds a rate (finance). A second rate for the same currency and day is a conflict. */
export async function createRate(
  input: ExchangeRateInput,
  by: string,
  client: Db = defaultDb,
): Promise<ExchangeRateDto> {
  parseRate(input.usdPerUnit);
  try {
    const row = await client.exchangeRate.create({
      data: { ...input, origin: "user", updatedBy: by },
    });
    return toRateDto(row);
  } catch (e) {
    if (isUniqueViolation(e)) {
      throw new ConflictError(
        `a ${input.currency} rate from ${input.effectiveFrom.toISOString().slice(0, 10)} already ` +
          "exists: give a later effective date for a rate change",
      );
    }
    throw e;
  }
}

/**
 * Retires a rate a person added (finance): it converts nothing from now on, so hours convert at
 * the rate before it again (after a re-price for past months), and a corrected rate may be added
 * for the same day. The row is removed; the route's audit entry keeps it whole for the record.
 * A shipped rate comes back with every start: it is superseded by a later rate, not retired.
 */
export async function retireRate(id: string, client: Db = defaultDb): Promise<ExchangeRateDto> {
  const row = await client.exchangeRate.findUnique({ where: { id } });
  if (!row) throw new NotFoundError(`exchange rate ${id}`);
  if (row.origin === "shipped") {
    throw new ConflictError(
      "this rate ships with the release and is installed again on every start: add a rate with a " +
        "later date to replace it from then on",
    );
  }
  const done = await client.exchangeRate.deleteMany({ where: { id, origin: "user" } });
  if (done.count === 0) throw new NotFoundError(`exchange rate ${id}`);
  return toRateDto(row);
}

const CONTENT = ["usdPerUnit", "source", "sourceDate"] as const;

/** Installs the shipped rates: missing ones added, shipped ones a release corrected updated. */
export async function installShippedRates(
  client: Db = defaultDb,
  rates: readonly ExchangeRateRow[] = SHIPPED_RATES,
): Promise<InstallResult> {
  const existing = await client.exchangeRate.findMany();
  const have = new Map(existing.map((r) => [`${r.currency}|${r.effectiveFrom.toISOString()}`, r]));
  const result: InstallResult = { inserted: 0, updated: 0, kept: 0 };
  for (const r of rates) {
    const current = have.get(`${r.currency}|${r.effectiveFrom.toISOString()}`);
    if (!current) {
      await client.exchangeRate.upsert({
        where: { currency_effectiveFrom: { currency: r.currency, effectiveFrom: r.effectiveFrom } },
        create: { ...r, origin: "shipped" },
        update: {},
      });
      result.inserted++;
    } else if (current.origin === "shipped" && CONTENT.some((k) => current[k] !== r[k])) {
      const done = await client.exchangeRate.updateMany({
        where: { id: current.id, origin: "shipped" },
        data: { usdPerUnit: r.usdPerUnit, source: r.source, sourceDate: r.sourceDate },
      });
      if (done.count > 0) result.updated++;
      else result.kept++;
    } else {
      result.kept++;
    }
  }
  return result;
}
