import { z } from "zod";
import { parseTrustedProxies } from "./config/trusted-proxies.ts";
import { promSettingsProblems } from "./config/prometheus.ts";

// The environment is read once, here, and validated; everything else imports `env`.
const schema = z
  .object({
    DATABASE_URL: z.string().min(1).default("file:./data/gpufleet.db"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOSTNAME: z.string().default("127.0.0.1"),
    PROMETHEUS_URL: z.url().optional(),
    /** Basic auth for Prometheus: the user, with the password read from PROMETHEUS_PASSWORD_FILE. */
    PROMETHEUS_USERNAME: z.string().optional(),
    PROMETHEUS_PASSWORD_FILE: z.string().optional(),
    /** A file holding the bearer token sent to Prometheus (instead of basic auth). */
    PROMETHEUS_BEARER_TOKEN_FILE: z.string().optional(),
    /** Extra headers for Prometheus: `Name=value` pairs, comma-separated (X-Scope-OrgID=team-a). */
    PROMETHEUS_HEADERS: z.string().optional(),
    /** PEM file of the CA that signed an https Prometheus's certificate. */
    PROMETHEUS_CA_FILE: z.string().optional(),
    GPUFLEET_DEMO: z.enum(["0", "1"]).default("1"),
    /** SQLite in write-ahead-log mode (lib/db-sqlite.ts); off by default, see bench/README.md "Load". */
    GPUFLEET_SQLITE_WAL: z.enum(["0", "1"]).default("0"),
    /** `npm start` only: the simulated demo fleet's exporter port and host count. */
    GPUFLEET_EXPORTER_PORT: z.coerce.number().int().min(1).max(65535).default(9445),
    GPUFLEET_DEMO_HOSTS: z.coerce.number().int().min(0).max(100_000).default(24),
    /** `npm run dev`: next dev instead of the built app. */
    GPUFLEET_DEV: z.enum(["0", "1"]).default("0"),
    /** `npm start` on an emptied SQLite store (the end-to-end tests). */
    GPUFLEET_FRESH_STORE: z.enum(["0", "1"]).default("0"),
    GPUFLEET_TARGETS_FILE: z.string().optional(),
    GPUFLEET_COLLECT_INTERVAL_S: z.coerce.number().int().min(1).max(3600).default(15),
    GPUFLEET_SCRAPE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
    GPUFLEET_SCRAPE_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(32),
    GPUFLEET_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(7),
    GPUFLEET_COLLECTOR: z.enum(["0", "1"]).default("1"),
    /** On SIGTERM/SIGINT: how long the server waits for notification sends in flight. */
    GPUFLEET_STOP_TIMEOUT_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
    /** The address people use to reach the app; https:// makes the session cookie Secure. */
    GPUFLEET_PUBLIC_URL: z.url().optional(),
    /** Proxies (IPs or CIDRs, comma-separated) whose X-Forwarded-For is believed; none by default. */
    GPUFLEET_TRUSTED_PROXIES: z
      .string()
      .optional()
      .superRefine((v, ctx) => {
        try {
          parseTrustedProxies(v);
        } catch (e) {
          ctx.addIssue({ code: "custom", message: (e as Error).message });
        }
      }),
    /** Signs session cookies; at least 32 characters. Unset: one is generated and kept in the store. */
    GPUFLEET_AUTH_SECRET: z.string().min(32).optional(),
    /** Signs the idle-release policies' generic webhook calls (HMAC-SHA256); at least 16 characters. */
    GPUFLEET_POLICY_WEBHOOK_SECRET: z.string().min(16).optional(),
    /** Email channels with a username and no password file of their own read the SMTP password here. */
    GPUFLEET_SMTP_PASSWORD_FILE: z.string().regex(/^\//, "an absolute path").optional(),
    /** With no user in the store, `npm start` creates this admin. */
    GPUFLEET_ADMIN_EMAIL: z.email().optional(),
    GPUFLEET_ADMIN_PASSWORD: z.string().min(12).optional(),
  })
  .superRefine((v, ctx) => {
    // combinations that cannot work, and a malformed PROMETHEUS_HEADERS; the files are read later,
    // by lib/metrics/prometheus/connection.ts, and no message quotes a secret
    for (const p of v.PROMETHEUS_URL ? promSettingsProblems(v) : []) {
      ctx.addIssue({ code: "custom", path: [p.variable], message: p.message });
    }
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
