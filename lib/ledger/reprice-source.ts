import type { PriceLookup } from "../pricing/lookup.ts";
import {
  HOST_KEY,
  repriceHostHour,
  splitHostCost,
  type RepricedRow,
  type StoredLedgerRow,
} from "./reprice-math.ts";

// Where a re-pricing takes a host-hour's new cost from (docs/architecture.md, "Domain rules"):
// - "catalogue": the list price in force at the hour's start (issue 23). An hour on actuals keeps
//   its actual; only the list estimate kept beside it (listCostMicros) follows the catalogue.
// - "bill": the billed effective cost of the hour from the imported bills (issue 26), passed in by
//   lib/billing as `actualOf`. A matched hour's cost becomes that amount, split over its GPU rows
//   as the ledger splits a cost, and its estimate is kept in listCostMicros. An hour the bills do
//   not mention keeps the list price; one that was on actuals before (its bill rows gone) goes back
//   to the list price in force.

/** The billed effective cost of a host's hour in micro-dollars, or undefined when not billed. */
export type ActualOf = (hostId: string, hourStart: Date) => bigint | undefined;

export type RepriceSource =
  | { kind: "catalogue" }
  | {
      kind: "bill";
      actualOf: ActualOf;
      /** the BillingImport ids the actuals come from (audited) */
      imports: readonly string[];
    };

export const CATALOGUE: RepriceSource = { kind: "catalogue" };
/** UsageHour.actualSource of an hour priced from the imported bills */
export const BILL_SOURCE = "bill";

export interface HourRows extends StoredLedgerRow {
  hostId: string;
  hourStart: Date;
}

/** The new values of one host-hour's rows (in the order of `rows`) under `source`. */
export function repriceFromSource(
  rows: readonly HourRows[],
  source: RepriceSource,
  price: () => PriceLookup,
): RepricedRow[] {
  const host = rows.find((r) => r.gpuKey === HOST_KEY);
  if (!host) throw new RangeError("a ledger hour without its host row");
  if (source.kind === "catalogue") {
    const listed = repriceHostHour(rows, price());
    if (host.actualSource === null) return listed;
    // on actuals: the actual stays, the estimate beside it is re-priced
    return rows.map((r, i) => ({
      gpuKey: r.gpuKey,
      costMicros: r.costMicros,
      idleCostMicros: r.idleCostMicros,
      priced: r.priced,
      currency: r.currency,
      actualSource: r.actualSource,
      listCostMicros: listed[i]?.costMicros ?? r.listCostMicros,
    }));
  }
  const actual = source.actualOf(host.hostId, host.hourStart);
  if (actual === undefined) {
    if (host.actualSource === null) return rows.map((r) => ({ ...r }));
    return repriceHostHour(rows, price()).map((v) => ({
      ...v,
      actualSource: null,
      listCostMicros: null,
    }));
  }
  return splitHostCost(rows, actual, true, "USD").map((v, i) => {
    const r = rows[i] ?? host;
    return {
      ...v,
      actualSource: BILL_SOURCE,
      listCostMicros: r.actualSource === null ? r.costMicros : (r.listCostMicros ?? r.costMicros),
    };
  });
}
