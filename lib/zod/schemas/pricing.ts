import { z } from "zod";
import { PRICING_MODELS } from "../../../exporter/contract.ts";
import {
  amountSchema,
  FIRST_YEAR,
  isoTimeSchema,
  LAST_YEAR,
  microsSchema,
  noteSchema,
  requiredText,
  sourceDateSchema,
} from "./common.ts";

// The pricing catalogue as finance edits it: one schema for the settings form and the API.

const token = (what: string, max: number, pattern: RegExp, example: string) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, { error: `${what} is required` })
    .max(max, { error: `at most ${max} characters` })
    .regex(pattern, { error: `${what} like ${example}` });

const text = requiredText;

/** Addresses that would run or render what they hold if the source text ever became a link. */
const UNSAFE_SCHEME = /(javascript|data|vbscript|file|blob):/i;

/** "2025-06-01" (UTC midnight) or a full ISO time; stored as a Date. */
const effectiveFromSchema = z
  .string({ error: "effective from is required" })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/, {
    error: "a date, e.g. 2025-06-01 (UTC)",
  })
  .transform((v, ctx) => {
    const d = new Date(v.length === 10 ? `${v}T00:00:00Z` : v);
    const year = d.getUTCFullYear();
    if (Number.isNaN(d.getTime()) || year < FIRST_YEAR || year > LAST_YEAR) {
      ctx.addIssue({
        code: "custom",
        message: `a real date between ${FIRST_YEAR} and ${LAST_YEAR}`,
      });
      return z.NEVER;
    }
    return d;
  });

export const priceInputSchema = z.strictObject({
  provider: token("provider", 40, /^[a-z0-9][a-z0-9_-]*$/, "aws, gcp, azure, alibaba, tencent"),
  instanceType: token("instance type", 100, /^[A-Za-z0-9][A-Za-z0-9._:/-]*$/, "p5.48xlarge"),
  region: token(
    "region",
    60,
    /^(\*|[A-Za-z0-9][A-Za-z0-9_-]*)$/,
    "us-east-1, or * for any",
  ).default("*"),
  pricingModel: z.enum(PRICING_MODELS, { error: "on_demand, spot or reserved" }),
  gpuModel: text("GPU model", 60),
  gpuCount: z
    .number({ error: "a whole number of GPUs" })
    .int({ error: "a whole number of GPUs" })
    .min(1, { error: "at least 1 GPU" })
    .max(64, { error: "at most 64 GPUs" }),
  gpuMemoryGiB: z
    .number({ error: "GiB per GPU, e.g. 80" })
    .positive({ error: "more than 0 GiB" })
    .max(4096, { error: "at most 4096 GiB" }),
  usdPerHour: amountSchema.describe("USD per instance-hour, at most six decimals"),
  effectiveFrom: effectiveFromSchema.describe("the price applies to hours starting at or after"),
  source: text("source", 500)
    .refine((v) => !UNSAFE_SCHEME.test(v.replace(/[\s\p{Cc}]+/gu, "")), {
      error:
        "a link in the source is http or https only (no javascript:, data:, vbscript: or file:)",
    })
    .describe("where the price was read: a page or document, with http(s) links"),
  sourceDate: sourceDateSchema("the month or day it was read, e.g. 2025-06"),
  note: noteSchema,
});
export type PriceInput = z.output<typeof priceInputSchema>;

/** Fields left out keep their value; the result is validated whole. */
export const priceUpdateSchema = z.strictObject({
  provider: z.string().optional(),
  instanceType: z.string().optional(),
  region: z.string().optional(),
  pricingModel: z.string().optional(),
  gpuModel: z.string().optional(),
  gpuCount: z.number().optional(),
  gpuMemoryGiB: z.number().optional(),
  usdPerHour: z.string().optional(),
  effectiveFrom: z.string().optional(),
  source: z.string().optional(),
  sourceDate: z.string().optional(),
  note: z.string().nullable().optional(),
});
export type PriceUpdate = z.infer<typeof priceUpdateSchema>;

export const PRICE_ORIGINS = ["shipped", "user"] as const;

export const pricingRowSchema = z.object({
  id: z.string(),
  provider: z.string(),
  instanceType: z.string(),
  region: z.string(),
  pricingModel: z.string(),
  gpuModel: z.string(),
  gpuCount: z.number(),
  gpuMemoryGiB: z.number().describe("nominal memory per GPU"),
  usdPerHourMicros: microsSchema,
  usdPerHour: z.string(),
  currency: z.string(),
  localPerHour: z
    .string()
    .nullable()
    .optional()
    .describe(
      "the price in `currency` when that is not USD (usdPerHour is then its conversion at effectiveFrom; hours convert at the rate in force)",
    ),
  effectiveFrom: isoTimeSchema,
  source: z.string(),
  sourceDate: z.string(),
  note: z.string().nullable(),
  origin: z
    .enum(PRICE_ORIGINS)
    .describe("shipped: from the release's catalogue; user: added or changed by a person"),
  updatedBy: z.string().nullable(),
  updatedAt: isoTimeSchema,
  retiredAt: isoTimeSchema.nullable().describe("a retired row prices nothing"),
  retiredBy: z.string().nullable(),
  site: z
    .string()
    .optional()
    .describe(
      'which of the provider\'s price lists: "" its only one; Tencent: "international" (USD) or "china" (CNY)',
    ),
});
export type PricingRowDto = z.infer<typeof pricingRowSchema>;
export const pricingListSchema = z.object({ rows: z.array(pricingRowSchema) });

export const pricingListQuerySchema = z.strictObject({
  retired: z
    .enum(["exclude", "include"])
    .default("exclude")
    .describe("include: also the retired rows"),
});
