import { z } from "zod";
import { httpUrlSchema } from "../../zod/schemas/common.ts";

// The upload route's query and answer, shared by the route, the settings panel and the OpenAPI
// document (a file of its own so the panel imports no server code).

export const UPLOAD_PROVIDERS = ["aws", "azure", "gcp", "alibaba", "tencent"] as const;

/** An upload is one Azure or GCP page, or a template: megabytes. A region's full AWS offer file
 * (hundreds of MB) is for the CLI, `npm run pricing:import`, which streams it. */
export const MAX_UPLOAD_BYTES = 16 * 1024 * 1024;

export const UPLOAD_CONTENT_TYPES: Record<(typeof UPLOAD_PROVIDERS)[number], readonly string[]> = {
  aws: ["application/json", "text/csv"],
  azure: ["application/json"],
  gcp: ["application/json"],
  alibaba: ["text/csv"],
  tencent: ["text/csv"],
};

export const importQuerySchema = z.strictObject({
  provider: z.enum(UPLOAD_PROVIDERS, { error: "aws, azure, gcp, alibaba or tencent" }),
  file: z
    .string()
    .trim()
    .max(120, { error: "at most 120 characters" })
    .regex(/^[A-Za-z0-9][A-Za-z0-9._ ()-]*$/, { error: "a plain file name" })
    .default("upload")
    .describe("the uploaded file's name: shown in messages and in the rows' updatedBy"),
  sourceDate: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?$/, { error: "YYYY-MM-DD or YYYY-MM" })
    .optional()
    .describe("Azure and GCP pages: the day they were downloaded (the pages carry no date)"),
  sourceUrl: httpUrlSchema
    .optional()
    .describe("where the file was downloaded; defaults to the provider's public API"),
  mode: z
    .enum(["preview", "apply"], { error: "preview or apply" })
    .default("preview")
    .describe("preview: compare with the catalogue and write nothing; apply: add the new rows"),
});
export type ImportQuery = z.output<typeof importQuerySchema>;

const importedRowSchema = z.object({
  provider: z.string(),
  instanceType: z.string(),
  region: z.string(),
  pricingModel: z.string(),
  gpuModel: z.string(),
  gpuCount: z.number(),
  usdPerHour: z.string(),
  effectiveFrom: z.string(),
  note: z.string().nullable(),
});

export const importResultSchema = z.object({
  dryRun: z.boolean().describe("true for a preview: nothing was written"),
  added: z.number().describe("rows added (a preview: rows that would be)"),
  unchanged: z.number().describe("rows already in the catalogue at the same price"),
  conflicts: z
    .array(
      z.object({
        provider: z.string(),
        instanceType: z.string(),
        region: z.string(),
        pricingModel: z.string(),
        effectiveFrom: z.string(),
        storedUsdPerHour: z.string(),
        importedUsdPerHour: z.string(),
        storedOrigin: z.string(),
        where: z.string(),
      }),
    )
    .describe("rows whose key is in the catalogue at another price: never overwritten"),
  skippedNonGpu: z.number().describe("products, items or SKUs that are not GPU instances"),
  skipped: z.record(z.string(), z.number()).describe("every reason something was left out"),
  describes: z.array(z.string()),
  addedRows: z.array(importedRowSchema).describe("the first 200 rows added"),
});
export type ImportResultDto = z.infer<typeof importResultSchema>;
