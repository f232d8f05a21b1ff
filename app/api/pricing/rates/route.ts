import { actorLabel } from "@/lib/auth/actor.ts";
import { requireFleetWide } from "@/lib/auth/scope.ts";
import { refreshFleetSoon } from "@/lib/fleet/fleet-cache.ts";
import { createRate, listRates } from "@/lib/pricing/rates.ts";
import { exchangeRateInputSchema } from "@/lib/zod/schemas/exchange-rate.ts";
import { handle, json } from "../../_lib/handle.ts";
import { readBody } from "../../_lib/http.ts";

/** The exchange rates prices kept in another currency (CNY) are converted with. */
export const GET = handle("pricing:read", async () => json({ rows: await listRates() }));

/** Adds a rate (finance without a team limit); it converts hours from its date on, past ones only when re-priced. */
export const POST = handle(
  "pricing:write",
  async (req: Request, _ctx: unknown, actor) => {
    requireFleetWide(actor, "adding an exchange rate");
    const input = await readBody(req, exchangeRateInputSchema);
    const row = await createRate(input, actorLabel(actor));
    await refreshFleetSoon();
    return json(row, { status: 201 });
  },
  { audit: "pricing.rate.create" },
);
