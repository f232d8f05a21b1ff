import { z } from "zod";
import { isoTimeSchema, microsSchema } from "./common.ts";

// "My GPUs" (issue 24): what the signed-in person holds now, matched through the people directory.

export const myGpuSchema = z.object({
  hostId: z.string(),
  hostname: z.string(),
  uuid: z.string(),
  index: z.number().int(),
  name: z.string(),
  state: z.enum(["busy", "idle", "not_reporting"]),
  util: z.number().nullable(),
  holders: z.array(z.string()).describe("how the person holds it: process, container, pod or job"),
  heldSince: isoTimeSchema
    .nullable()
    .describe("start of the run of ledger hours the person held it; null: within the hour"),
  perHourMicros: microsSchema
    .nullable()
    .describe("the GPU's share of its host's price; null: unpriced"),
});

export const myGpusSchema = z.object({
  mapped: z.boolean().describe("false: no directory entry or pattern matches your email"),
  as: z
    .array(z.string())
    .describe("the directory keys your email stands for: user alice, namespace ml"),
  gpus: z.array(myGpuSchema),
  monthMicros: microsSchema.describe("this month's ledger cost of the GPUs you held"),
  monthIdleMicros: microsSchema,
  currency: z.string(),
  alerts: z.array(
    z.object({ id: z.string(), summary: z.string(), state: z.string(), startsAt: isoTimeSchema }),
  ),
});
export type MyGpus = z.infer<typeof myGpusSchema>;
