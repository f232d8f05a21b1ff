import { applyActuals, previewActuals } from "@/lib/billing/actuals.ts";
import { repriceRoute } from "../../pricing/reprice-route.ts";

/**
 * Re-prices a month of the ledger from its imported bills (actuals, issue 26): the ledger's
 * re-pricing with the bill as its source, so the body and the answer are the catalogue
 * re-pricing's (POST /api/pricing/reprice, app/api/pricing/reprice-route.ts); audited with
 * source "bill".
 */
export const POST = repriceRoute(
  "applying actuals from the bill",
  (o) => previewActuals(o),
  (o) => applyActuals(o),
);
