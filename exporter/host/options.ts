// --host.detect and friends: which cloud metadata service to ask, where, and how often.
// Validation returns a message (config.ts turns it into a ConfigError) so this module stays
// free of the config module it is part of.

export const PROVIDERS = ["aws", "gcp", "azure", "alibaba", "tencent"] as const;
export type Provider = (typeof PROVIDERS)[number];
export type DetectMode = "none" | "auto" | Provider;
export const DETECT_MODES: readonly DetectMode[] = ["none", "auto", ...PROVIDERS];

/** The documented addresses. Only production uses them; every test gives a 127.0.0.1 URL. */
export const DEFAULT_BASES: Readonly<Record<Provider, string>> = {
  aws: "http://169.254.169.254",
  gcp: "http://metadata.google.internal",
  azure: "http://169.254.169.254",
  alibaba: "http://100.100.100.200",
  tencent: "http://metadata.tencentyun.com",
};

export interface DetectConfig {
  mode: DetectMode;
  /** --host.detect.endpoint: base URL for the chosen provider (tests, proxies) */
  endpoint?: string;
  /** programmatic only (tests of auto): a base URL per provider; unlisted ones are not probed */
  endpoints?: Partial<Record<Provider, string>>;
  /** each metadata request gives up after this */
  timeoutMs: number;
  /** re-read the metadata this often (never per scrape) */
  refreshMs: number;
  /** poll the interruption notice this often, on spot hosts only */
  pollMs: number;
  /** programmatic only: the clock for token expiry and "first seen" notice times (tests) */
  now?: () => number;
}

export const DETECT_DEFAULTS = {
  mode: "none",
  timeoutMs: 500,
  refreshMs: 3_600_000,
  pollMs: 5000,
} as const satisfies Partial<DetectConfig>;

export function isProvider(text: string): text is Provider {
  return (PROVIDERS as readonly string[]).includes(text);
}

function badUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return (u.protocol !== "http:" && u.protocol !== "https:") || u.search !== "" || u.hash !== "";
  } catch {
    return true;
  }
}

/** The first problem with a detection config, or undefined. */
export function detectProblem(d: DetectConfig, simulate: boolean): string | undefined {
  if (!DETECT_MODES.includes(d.mode)) {
    return `invalid --host.detect "${String(d.mode)}" (one of ${DETECT_MODES.join(", ")})`;
  }
  if (d.endpoint !== undefined) {
    if (badUrl(d.endpoint)) {
      return `invalid --host.detect.endpoint "${d.endpoint}" (want http(s)://host[:port][/path])`;
    }
    if (d.mode === "none") return "--host.detect.endpoint needs --host.detect=<provider>";
    // auto probes five services at five addresses: one override cannot stand for all of them
    if (d.mode === "auto") {
      return "--host.detect.endpoint needs an explicit provider (--host.detect=aws|gcp|azure|alibaba|tencent), not auto";
    }
  }
  for (const [p, url] of Object.entries(d.endpoints ?? {})) {
    if (!isProvider(p) || badUrl(url)) return `invalid detection endpoint for ${p}: "${url}"`;
  }
  if (!(d.timeoutMs >= 50 && d.timeoutMs <= 30_000)) {
    return "--host.detect.timeout must be from 50ms to 30s";
  }
  if (!(d.refreshMs >= 10_000)) return "--host.detect.refresh-interval must be at least 10s";
  if (!(d.pollMs >= 1000 && d.pollMs <= 600_000)) {
    return "--host.interruption.poll-interval must be from 1s to 10m";
  }
  // a simulated fleet runs in demos and tests: it must never reach a real metadata address
  // (with auto it probes only the programmatic endpoints, none by default)
  if (simulate && isProvider(d.mode) && d.endpoint === undefined && !d.endpoints?.[d.mode]) {
    return `--simulate with --host.detect=${d.mode} needs --host.detect.endpoint (it never asks the real metadata address)`;
  }
  return undefined;
}

/** Base URL for a provider, or undefined when it must not be asked (simulated auto mode). */
export function baseFor(d: DetectConfig, p: Provider, simulate: boolean): string | undefined {
  if (d.mode === p && d.endpoint !== undefined) return d.endpoint.replace(/\/+$/, "");
  if (d.endpoints !== undefined) return d.endpoints[p]?.replace(/\/+$/, "");
  return simulate ? undefined : DEFAULT_BASES[p];
}
