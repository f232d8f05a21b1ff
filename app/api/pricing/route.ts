import { createPrice, listPrices } from "@/lib/pricing/manage.ts";
import { actorLabel } from "@/lib/auth/actor.ts";
import { requireFleetWide } from "@/lib/auth/scope.ts";
import { priceInputSchema, pricingListQuerySchema } from "@/lib/zod/schemas/pricing.ts";
import { refreshFleetSoon } from "@/lib/fleet/fleet-cache.ts";
import { handle, json, parseQuery } from "../_lib/handle.ts";
import { readBody } from "../_lib/http.ts";

/** The pricing catalogue: the rows in force (and the retired ones with ?retired=include). */
export const GET = handle("pricing:read", async (req: Request) => {
  const q = parseQuery(pricingListQuerySchema, req.url);
  return json({ rows: await listPrices({ includeRetired: q.retired === "include" }) });
});

/**
 * Adds a price (finance without a team limit); it prices ledger hours from now on, and past ones
 * only when re-priced.
 */
export const POST = handle("pricing:write", async (req: Request, _ctx: unknown, actor) => {
  requireFleetWide(actor, "adding a price");
  const input = await readBody(req, priceInputSchema);
  const row = await createPrice(input, actorLabel(actor));
  await refreshFleetSoon();
  return json(row, { status: 201 });
});
