import { z } from "zod";
import { microsSchema } from "./common.ts";
import { monthSchema } from "./month.ts";

// Re-pricing a month of the ledger with the catalogue as it is now: previewed first, then applied
// with the previewed new total, so nothing re-prices silently (lib/ledger/reprice.ts).

export const repriceRequestSchema = z
  .strictObject({
    month: monthSchema,
    reopen: z
      .boolean({ error: "true or false" })
      .optional()
      .describe("required (true) to re-price a month before the current UTC month"),
    apply: z
      .boolean({ error: "true or false" })
      .optional()
      .describe("false or absent: preview only, nothing is written"),
    expectedNewTotalMicros: microsSchema
      .optional()
      .describe("with apply: the new total the preview showed; a different one is refused (409)"),
  })
  .superRefine((body, ctx) => {
    if (body.apply === true && body.expectedNewTotalMicros === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["expectedNewTotalMicros"],
        message: "required with apply: the new total of the preview",
      });
    }
  });

export const repriceHostSchema = z.object({
  hostId: z.string(),
  hostname: z.string(),
  instanceType: z.string().describe("as snapshotted on the ledger rows"),
  pricingModel: z.string(),
  oldMicros: microsSchema.describe("the host's month total before re-pricing"),
  newMicros: microsSchema.describe("the host's month total after re-pricing"),
  deltaMicros: microsSchema,
  hoursChanged: z.number().int(),
});
export type RepriceHostDto = z.infer<typeof repriceHostSchema>;

export const repriceResultSchema = z.object({
  month: monthSchema,
  source: z
    .enum(["catalogue", "bill"])
    .describe("catalogue: today's list prices; bill: each billed hour's effective cost (actuals)"),
  closed: z.boolean().describe("an earlier month than the current UTC one (billed)"),
  applied: z.boolean().describe("false for a preview: nothing was written"),
  reopened: z.boolean().describe("true when an applied re-pricing changed a closed month"),
  appliedBy: z.string().nullable().describe("who applied it; null for a preview"),
  currency: z.string(),
  oldTotalMicros: microsSchema.describe("the month's ledger total as written"),
  newTotalMicros: microsSchema.describe("the month's total with the source's prices"),
  deltaMicros: microsSchema,
  hours: z.object({
    total: z.number().int().describe("host-hours in the month's ledger"),
    changed: z.number().int().describe("host-hours whose cost, idle cost or priced flag changes"),
    newlyPriced: z.number().int(),
    newlyUnpriced: z.number().int().describe("priced before, no price in force now (retired)"),
    unpricedAfter: z.number().int(),
    actualAfter: z
      .number()
      .int()
      .describe("host-hours costed from the imported bills after it (the rest are estimates)"),
  }),
  rowsChanged: z.number().int().describe("ledger rows (host, GPU and MIG rows) that change"),
  hostsChanged: z.number().int(),
  hosts: z
    .array(repriceHostSchema)
    .describe("hosts with a change, largest absolute change first (at most 50)"),
});
export type RepriceResultDto = z.infer<typeof repriceResultSchema>;
