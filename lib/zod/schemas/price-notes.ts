import { z } from "zod";
import { isoTimeSchema } from "./common.ts";

// What stands behind a month's cost figures (GET /api/costs → priceNotes): the catalogue rows that
// priced its hours, which are stale (read over 90 days ago) or the "*" fallback, and the hosts
// priced in another currency with the exchange rates that converted them (lib/spend/price-notes.ts).

export const priceNotesSchema = z.object({
  used: z.array(
    z.object({
      provider: z.string(),
      instanceType: z.string(),
      region: z.string().describe('the row\'s region; "*" is the fallback'),
      pricingModel: z.string(),
      effectiveFrom: isoTimeSchema,
      sourceDate: z.string(),
      stale: z
        .boolean()
        .describe(
          "read more than 90 days ago, or more than 90 days after the first hour it priced this month (a figure applied back from a later reading)",
        ),
      ageDays: z.number().int().nullable(),
      localCurrency: z.string().nullable(),
      localPerHour: z.string().nullable(),
      fallbackFor: z.array(z.string()).describe("host regions this fallback row priced"),
      hosts: z.array(z.string()),
    }),
  ),
  converted: z.array(
    z.object({
      hostname: z.string(),
      currency: z.string(),
      rates: z.array(
        z.object({
          usdPerUnit: z.string(),
          effectiveFrom: isoTimeSchema,
          sourceDate: z.string(),
          source: z.string(),
          stale: z.boolean(),
        }),
      ),
    }),
  ),
});
export type PriceNotes = z.infer<typeof priceNotesSchema>;
