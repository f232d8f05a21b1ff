import { applyReprice, previewReprice } from "@/lib/ledger/reprice.ts";
import { repriceRoute } from "../reprice-route.ts";

/** Re-prices a month of the ledger with today's catalogue (preview, then apply: reprice-route.ts). */
export const POST = repriceRoute(
  "re-pricing",
  (o) => previewReprice(o),
  (o) => applyReprice(o),
);
