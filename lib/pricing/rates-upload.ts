import { z } from "zod";
import { safeFileName } from "./import/upload.ts";

// The exchange-rate upload (POST /api/pricing/rates/import, the settings panel): a Federal
// Reserve H.10/G.5 CSV as the Data Download Program writes it (rates-h10.ts), previewed, then
// applied. The query, the limits and the answer's shape, shared by the route, the OpenAPI
// document and the panel (no server code here).

/** a daily series since 1981 is about 0.3 MiB; a few series together stay well under this */
export const RATES_UPLOAD_MAX_BYTES = 4 * 1024 * 1024;
export const RATES_UPLOAD_CONTENT_TYPES = ["text/csv"] as const;

export const ratesUploadQuerySchema = z.strictObject({
  mode: z
    .enum(["preview", "apply"], { error: "preview or apply" })
    .default("preview")
    .describe("preview (the default) writes nothing; apply adds the new rates"),
  file: z
    .string()
    .trim()
    .max(120, { error: "at most 120 characters" })
    .regex(/^[A-Za-z0-9][A-Za-z0-9._ ()-]*$/, { error: "a plain file name" })
    .default("upload")
    .describe("the uploaded file's name: shown in messages and in the rates' source"),
});

export const ratesUploadResultSchema = z.object({
  dryRun: z.boolean(),
  added: z.number().int(),
  unchanged: z.number().int(),
  conflicts: z.array(
    z.object({
      currency: z.string(),
      effectiveFrom: z.string(),
      existing: z.string(),
      imported: z.string(),
      origin: z.string(),
    }),
  ),
  span: z.record(z.string(), z.tuple([z.string(), z.string()])),
  series: z.array(
    z.object({
      series: z.string(),
      currency: z.string(),
      rates: z.number().int(),
      noData: z.number().int(),
    }),
  ),
  summary: z.array(z.string()),
});
export type RatesUploadResult = z.infer<typeof ratesUploadResultSchema>;

/** The route's URL for a file and a mode (the panel's request). */
export function ratesUploadUrl(fileName: string, mode: "preview" | "apply"): string {
  const q = new URLSearchParams({ file: safeFileName(fileName), mode });
  return `/api/pricing/rates/import?${q.toString()}`;
}

/** What is wrong with a chosen file before anything is sent (null: send it). */
export function ratesUploadProblem(file: { name: string; size: number } | null): string | null {
  if (!file) return "choose a file";
  if (!/\.csv$/i.test(file.name)) return "an H.10/G.5 download is a .csv file";
  if (file.size > RATES_UPLOAD_MAX_BYTES) {
    return `the file is ${(file.size / 2 ** 20).toFixed(1)} MiB; uploads stop at ${RATES_UPLOAD_MAX_BYTES / 2 ** 20} MiB: import it with npm run rates:import on the server`;
  }
  return null;
}
