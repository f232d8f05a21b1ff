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
  /** The address people use to reach the app; https:// makes the session cookie Secure. */
  GPUFLEET_PUBLIC_URL: z.url().optional(),
  /** Signs session cookies; at least 32 characters. Unset: one is generated and kept in the store. */
  GPUFLEET_AUTH_SECRET: z.string().min(32).optional(),
  /** With no user in the store, `npm start` creates this admin. */
  GPUFLEET_ADMIN_EMAIL: z.email().optional(),
  GPUFLEET_ADMIN_PASSWORD: z.string().min(12).optional(),
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
