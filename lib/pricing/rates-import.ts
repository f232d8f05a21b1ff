import "server-only";
import type { Db } from "../db.ts";
import type { ExchangeRateRow } from "./fx.ts";

// Writes the rates of an H.10 file (rates-h10.ts) as rates a person added ("user" rows: a later
// release never touches them). All or nothing: the new rates go in one transaction. A rate whose
// currency and day already exist at the same value is unchanged; at another value it is a
// conflict, reported and left as it is (retire the user row, or add a later one, to change it).

export interface RatesImportResult {
  dryRun: boolean;
  added: number;
  unchanged: number;
  conflicts: {
    currency: string;
    effectiveFrom: string;
    existing: string;
    imported: string;
    origin: string;
  }[];
  /** the first and last date imported per currency, e.g. { CNY: ["2026-01", "2026-11"] } */
  span: Record<string, [string, string]>;
}

export async function importRates(
  client: Db,
  rows: readonly ExchangeRateRow[],
  by: string,
  opts: { dryRun: boolean },
): Promise<RatesImportResult> {
  const keys = new Set<string>();
  for (const r of rows) {
    const k = `${r.currency}|${r.effectiveFrom.toISOString()}`;
    if (keys.has(k)) {
      throw new Error(
        `a second ${r.currency} rate from ${r.effectiveFrom.toISOString().slice(0, 10)} (two files give the same day): nothing written`,
      );
    }
    keys.add(k);
  }
  const currencies = [...new Set(rows.map((r) => r.currency))];
  return client.$transaction(async (tx) => {
    const existing = await tx.exchangeRate.findMany({ where: { currency: { in: currencies } } });
    const have = new Map(
      existing.map((r) => [`${r.currency}|${r.effectiveFrom.toISOString()}`, r]),
    );
    const result: RatesImportResult = {
      dryRun: opts.dryRun,
      added: 0,
      unchanged: 0,
      conflicts: [],
      span: {},
    };
    const fresh: ExchangeRateRow[] = [];
    for (const r of rows) {
      const seen = have.get(`${r.currency}|${r.effectiveFrom.toISOString()}`);
      if (!seen) fresh.push(r);
      else if (seen.usdPerUnit === r.usdPerUnit) result.unchanged++;
      else {
        result.conflicts.push({
          currency: r.currency,
          effectiveFrom: r.effectiveFrom.toISOString(),
          existing: seen.usdPerUnit,
          imported: r.usdPerUnit,
          origin: seen.origin,
        });
      }
      const span = result.span[r.currency];
      if (!span) result.span[r.currency] = [r.sourceDate, r.sourceDate];
      else {
        if (r.sourceDate < span[0]) span[0] = r.sourceDate;
        if (r.sourceDate > span[1]) span[1] = r.sourceDate;
      }
    }
    result.added = fresh.length;
    if (!opts.dryRun && fresh.length > 0) {
      await tx.exchangeRate.createMany({
        data: fresh.map((r) => ({ ...r, origin: "user", updatedBy: by })),
      });
    }
    return result;
  });
}

/** What the CLI prints. */
export function ratesImportLines(r: RatesImportResult): string[] {
  const lines = [
    `${r.dryRun ? "would add" : "added"} ${r.added} rate(s), ${r.unchanged} already there`,
    ...Object.entries(r.span).map(([c, [a, b]]) => `${c}: ${a} to ${b}`),
  ];
  for (const c of r.conflicts) {
    lines.push(
      `conflict, left as it is: ${c.currency} from ${c.effectiveFrom.slice(0, 10)} is ${c.existing} (${c.origin}), the file says ${c.imported}`,
    );
  }
  return lines;
}
