import { z } from "zod";
import { monthSchema } from "./month.ts";

// The billing import's query and limits, shared by the route, the reconciliation page's upload
// and the CLI's documentation (lib/billing reads the file; this file imports no server code).

/**
 * An upload is streamed to a temporary file while it arrives (never held in memory), then read
 * streaming: 512 MiB is a month of a mid-sized account's gzip FOCUS export. Larger bills go
 * through `npm run billing:import -- <file>` on the server, which has no cap.
 */
export const MAX_BILL_UPLOAD_BYTES = 512 * 1024 * 1024;

/** What a bill may be sent as: the raw file as the body. */
export const BILL_CONTENT_TYPES = [
  "text/csv",
  "application/gzip",
  "application/x-gzip",
  "application/vnd.apache.parquet",
  "application/octet-stream",
] as const;

export const BILL_FORMATS = ["focus", "cur2", "alibaba", "tencent"] as const;

export const billImportQuerySchema = z.strictObject({
  file: z
    .string()
    .trim()
    .max(120, { error: "at most 120 characters" })
    .regex(/^[A-Za-z0-9][A-Za-z0-9._ ()-]*$/, { error: "a plain file name" })
    .default("bill")
    .describe("the uploaded file's name, kept with the import"),
  format: z
    .enum(BILL_FORMATS, { error: "focus, cur2, alibaba or tencent" })
    .optional()
    .describe("the export's format; found from the header when absent"),
  mode: z
    .enum(["preview", "apply"], { error: "preview or apply" })
    .default("preview")
    .describe("preview: read and count, write nothing; apply: keep the lines"),
});

export const reconcileQuerySchema = z.strictObject({
  month: monthSchema.optional().describe("YYYY-MM (UTC); the previous month when absent"),
});

/** The content type a chosen file is sent as, from its name. */
export function billContentType(fileName: string): string {
  if (/\.csv$/i.test(fileName)) return "text/csv";
  if (/\.gz$/i.test(fileName)) return "application/gzip";
  if (/\.parquet$/i.test(fileName)) return "application/vnd.apache.parquet";
  return "application/octet-stream";
}

const micros = z.string().regex(/^-?\d+$/);
const moneyFields = {
  estimateMicros: micros,
  billedMicros: micros,
  effectiveMicros: micros,
  varianceMicros: micros,
  variancePct: z.number().nullable(),
  display: z.object({
    estimate: z.string(),
    billed: z.string(),
    effective: z.string(),
    variance: z.string(),
  }),
};

export const reconRowSchema = z.object({
  kind: z.enum(["host", "unmonitored"]),
  key: z.string(),
  name: z.string(),
  team: z.string(),
  provider: z.string(),
  pricingModel: z.string(),
  instanceType: z.string(),
  region: z.string(),
  account: z.string(),
  billedHours: z.number(),
  ledgerHours: z.number(),
  ...moneyFields,
  reasons: z.array(z.object({ reason: z.string(), label: z.string(), micros })),
  reason: z.string().nullable(),
});
export type ReconRowDto = z.output<typeof reconRowSchema>;

export const reconGroupSchema = z.object({ key: z.string(), ...moneyFields });
export type ReconGroupDto = z.output<typeof reconGroupSchema>;

export const reconciliationSchema = z.object({
  month: monthSchema,
  imports: z.array(
    z.object({
      id: z.string(),
      file: z.string(),
      provider: z.string(),
      format: z.string(),
      rowsRead: z.number(),
      rowsKept: z.number(),
      importedBy: z.string(),
      importedAt: z.string(),
    }),
  ),
  total: z.object(moneyFields),
  hosts: z.array(reconRowSchema),
  unmonitored: z.array(reconRowSchema),
  notBilled: z.array(
    z.object({
      hostId: z.string(),
      hostname: z.string(),
      team: z.string(),
      provider: z.string(),
      region: z.string(),
      instanceId: z.string().nullable(),
      estimateMicros: micros,
      estimate: z.string(),
      why: z.string(),
    }),
  ),
  largest: z.array(reconRowSchema),
  byTeam: z.array(reconGroupSchema),
  byProvider: z.array(reconGroupSchema),
  byPricingModel: z.array(reconGroupSchema),
  actuals: z.object({
    hours: z.number().int().describe("host-hours in the month's ledger"),
    actualHours: z
      .number()
      .int()
      .describe("of them, costed from the imported bills (the rest are list estimates)"),
  }),
});
export type ReconciliationDto = z.output<typeof reconciliationSchema>;

export const billImportReportSchema = z.object({
  dryRun: z.boolean(),
  file: z.string(),
  format: z.string().nullable(),
  providers: z.array(z.string()),
  period: z.string().nullable(),
  rowsRead: z.number(),
  rowsKept: z.number(),
  lines: z.number(),
  skipped: z.record(z.string(), z.number()),
  billedMicros: micros,
  effectiveMicros: micros,
  currencies: z.array(z.string()),
  instances: z.number(),
  importId: z.string().nullable(),
  replaced: z.number(),
});
export type BillImportReportDto = z.output<typeof billImportReportSchema>;
