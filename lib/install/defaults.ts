import "server-only";
import { installDefaultRules } from "../alerts/rules/default-rules.ts";
import type { Db } from "../db.ts";
import { installShippedBenchmarks } from "../benchmarks/shipped.ts";
import { installShippedCatalogue } from "../pricing/seed.ts";
import type { InstallResult } from "../pricing/types.ts";

// What every install starts with, whatever GPUFLEET_DEMO says: the shipped pricing catalogue
// (so hosts are priced from the first minute) and the default alert rules (so idle GPUs and
// silent exporters raise alerts without an admin writing rules first). Run by `npm start` and the
// app image before serving (scripts/first-run.ts) and by each server process on boot.

export interface DefaultsResult {
  prices: InstallResult;
  rulesCreated: number;
}

export async function installDefaults(db: Db): Promise<DefaultsResult> {
  const prices = await installShippedCatalogue(db);
  await installShippedBenchmarks(db);
  const rulesCreated = await installDefaultRules(db);
  return { prices, rulesCreated };
}

/** One line for the start banner. */
export function describeDefaults(r: DefaultsResult): string {
  const p = r.prices;
  const prices =
    p.inserted + p.updated === 0
      ? "pricing catalogue up to date"
      : `pricing catalogue: ${p.inserted} shipped price(s) added, ${p.updated} updated`;
  const rules = r.rulesCreated > 0 ? `; ${r.rulesCreated} default alert rules installed` : "";
  return prices + rules;
}
