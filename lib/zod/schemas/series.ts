import { z } from "zod";
import { isoTimeSchema, sourceHealthSchema } from "./common.ts";
import { rangeSchema } from "./range.ts";

export const seriesPointSchema = z.object({
  t: z.number().describe("epoch milliseconds"),
  v: z.number().nullable(),
});

export const fleetSeriesSchema = z.object({
  range: rangeSchema,
  from: isoTimeSchema,
  to: isoTimeSchema,
  generatedAt: isoTimeSchema,
  health: sourceHealthSchema,
  util: z.array(seriesPointSchema).describe("mean SM utilization 0-1 over reporting GPUs"),
  memUsedBytes: z.array(seriesPointSchema),
  gpusReporting: z.array(seriesPointSchema),
});
export type FleetSeriesDto = z.infer<typeof fleetSeriesSchema>;

export const gpuSeriesSchema = z.object({
  uuid: z.string(),
  index: z.number().int(),
  name: z.string(),
  util: z.array(seriesPointSchema),
  memUsedBytes: z.array(seriesPointSchema),
  powerWatts: z.array(seriesPointSchema),
  tempCelsius: z.array(seriesPointSchema),
  smClockHz: z.array(seriesPointSchema),
  smActive: z
    .array(seriesPointSchema)
    .optional()
    .describe("SM active 0-1 (DCGM profiling); absent or empty where the GPU has none"),
});
export type GpuSeriesDto = z.infer<typeof gpuSeriesSchema>;

export const instanceSeriesSchema = z.object({
  hostId: z.string(),
  range: rangeSchema,
  from: isoTimeSchema,
  to: isoTimeSchema,
  generatedAt: isoTimeSchema,
  health: sourceHealthSchema,
  gpus: z.array(gpuSeriesSchema),
});
export type InstanceSeriesDto = z.infer<typeof instanceSeriesSchema>;
