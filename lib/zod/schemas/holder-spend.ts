import { z } from "zod";
import { microsSchema } from "./common.ts";
import { monthSchema } from "./month.ts";

// Spend and idle spend by holder for one month (issue 24): the costs page's "who holds idle GPUs"
// table and its CSV. Rows are people (a user; else a pod namespace or Slurm account), named for the
// viewer (pseudonyms where the admin setting applies); the "not held" row is the ledger's time no
// process named a holder, so the rows add up to the month's total.

export const holderSpendRowSchema = z.object({
  holder: z.string().describe("the person (user), or namespace/account; personal data"),
  held: z.boolean().describe("false on the one row for GPU time no holder was named"),
  gpuHours: z.number().describe("GPU-hours held, by memory-seconds share"),
  costMicros: microsSchema,
  idleGpuHours: z.number(),
  idleMicros: microsSchema,
  longestIdleSeconds: z
    .number()
    .int()
    .describe("the longest run of idle time on one GPU over consecutive hours the holder held it"),
  displayCostMicros: microsSchema.describe("costMicros rounded so the rows add up to the total"),
  displayIdleMicros: microsSchema.describe(
    "idleMicros rounded so the rows add up to the idle total",
  ),
});
export type HolderSpendRow = z.infer<typeof holderSpendRowSchema>;

export const holderSpendSchema = z.object({
  month: monthSchema,
  currency: z.string(),
  pseudonymous: z.boolean(),
  totalMicros: microsSchema.describe("the month's priced ledger total; the rows sum to it"),
  idleMicros: microsSchema,
  displayTotalMicros: microsSchema,
  displayIdleMicros: microsSchema,
  rows: z.array(holderSpendRowSchema),
});
export type HolderSpend = z.infer<typeof holderSpendSchema>;
