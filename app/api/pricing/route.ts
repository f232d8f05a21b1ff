import { loadPriceRows } from "@/lib/pricing/catalogue-db.ts";
import { formatMicros } from "@/lib/cost/money.ts";
import { handle, json, noQuery, parseQuery } from "../_lib/handle.ts";

/** The pricing catalogue as the ledger uses it: one row per instance type, region and model. */
export const GET = handle("pricing:read", async (req: Request) => {
  parseQuery(noQuery, req.url);
  const rows = await loadPriceRows();
  return json({
    rows: rows.map((r) => ({
      provider: r.provider,
      instanceType: r.instanceType,
      region: r.region,
      pricingModel: r.pricingModel,
      gpuModel: r.gpuModel,
      gpuCount: r.gpuCount,
      usdPerHourMicros: r.usdPerHourMicros.toString(),
      usdPerHour: formatMicros(r.usdPerHourMicros),
      currency: r.currency,
      effectiveFrom: r.effectiveFrom.toISOString(),
      source: r.source,
      sourceDate: r.sourceDate,
      note: r.note,
    })),
  });
});
