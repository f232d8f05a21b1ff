import { db as defaultDb, type Db } from "../db.ts";
import { loadRates } from "../pricing/rates.ts";
import { importBill, type ImportReport } from "./import.ts";
import { readBillFile } from "./read.ts";
import { getReconciliation, type Reconciliation } from "./reconcile.ts";
import type { BillFormat } from "./types.ts";

// What routes, the CLI and the demo call (routes never import the store).

export interface ImportFileOptions {
  file: string;
  by: string;
  dryRun: boolean;
  format?: BillFormat;
}

/** Imports (or previews) the bill at `path`, converting non-USD rows at the stored rates. */
export async function importBillFile(
  path: string,
  opts: ImportFileOptions,
  client: Db = defaultDb,
): Promise<ImportReport> {
  const rates = await loadRates(client);
  return importBill(client, readBillFile(path), { ...opts, rates });
}

export async function reconcileMonth(
  month: string,
  client: Db = defaultDb,
): Promise<Reconciliation> {
  return getReconciliation(client, month);
}
