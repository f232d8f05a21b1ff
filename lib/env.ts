import { z } from "zod";

// The environment is read once, here, and validated; everything else imports `env`.
const schema = z.object({
  DATABASE_URL: z.string().min(1).default("file:./data/gpufleet.db"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOSTNAME: z.string().default("127.0.0.1"),
  PROMETHEUS_URL: z.url().optional(),
  GPUFLEET_DEMO: z.enum(["0", "1"]).default("1"),
  GPUFLEET_TARGETS_FILE: z.string().optional(),
  GPUFLEET_COLLECT_INTERVAL_S: z.coerce.number().int().min(1).max(3600).default(15),
  GPUFLEET_SCRAPE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  GPUFLEET_SCRAPE_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(32),
  GPUFLEET_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  GPUFLEET_COLLECTOR: z.enum(["0", "1"]).default("1"),
});

export type Env = z.infer<typeof schema>;

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  return result.data;
}

export const env: Env = parseEnv(process.env);
