// The exporter's configuration: defaults, validation, and the programmatic shape used by
// startExporter(). Flag and environment parsing live in flags.ts and produce these options.

import { hostname as osHostname } from "node:os";
import { DETECT_DEFAULTS, detectProblem, type DetectConfig } from "./host/options.ts";
import type { Level, Logger } from "./log.ts";
import { HOST_LABELS } from "./metrics.ts";
import { WORK_DEFAULTS, workProblem, type WorkConfig } from "./work/config.ts";

import { PRICING_MODELS, type PricingModel } from "./contract.ts";
export { PRICING_MODELS, type PricingModel };
export const LOG_LEVELS: readonly Level[] = ["debug", "info", "warn", "error"];

export interface HostConfig {
  hostname: string;
  provider: string;
  instanceType: string;
  region: string;
  zone: string;
  pricingModel: PricingModel;
  instanceId: string;
  /** extra gpu_host_info labels (--host.label k=v) */
  labels: Record<string, string>;
  /** the fields given explicitly (flag or variable, not empty): detection never overrides them */
  given: HostField[];
}

/** gpu_host_info fields that cloud metadata can fill, with their label names. */
export const HOST_FIELDS = {
  provider: "provider",
  instanceType: "instance_type",
  region: "region",
  zone: "zone",
  pricingModel: "pricing_model",
  instanceId: "instance_id",
} as const;
export type HostField = keyof typeof HOST_FIELDS;

/** Process attribution (exporter/holders/): who holds each compute process. */
export interface HoldersConfig {
  enabled: boolean;
  /** where the host's /proc is mounted (--path.procfs, as node_exporter) */
  procfs: string;
  /** Docker Engine API unix socket for container names; off when undefined */
  dockerSocket?: string;
  /** kubelet base URL (its /pods) for namespace, pod and container names; off when undefined */
  kubeletUrl?: string;
  kubeletTokenFile: string;
  kubeletCaFile?: string;
  kubeletInsecure: boolean;
  /** scontrol binary for a Slurm job's user and account; off when undefined */
  scontrolPath?: string;
  /** each enrichment request or command gives up after this */
  timeoutMs: number;
}

export const HOLDERS_DEFAULTS: HoldersConfig = {
  enabled: true,
  procfs: "/proc",
  kubeletTokenFile: "/var/run/secrets/kubernetes.io/serviceaccount/token",
  kubeletInsecure: false,
  timeoutMs: 2000,
};

/** Knobs without flags: tests shorten them, the defaults suit production. */
export interface Tuning {
  migIntervalMs: number;
  commandTimeoutMs: number;
  startupGraceMs: number;
  backoffMaxMs: number;
}

export interface ExporterConfig {
  listenAddress: string;
  telemetryPath: string;
  webConfigFile?: string;
  intervalMs: number;
  staleAfterMs: number;
  nvidiaSmiPath: string;
  dcgmUrl?: string;
  compat?: "dcgm";
  host: HostConfig;
  detect: DetectConfig;
  holders: HoldersConfig;
  /** work counters: textfile collector and inference-server relay (exporter/work/) */
  work: WorkConfig;
  simulate: boolean;
  simulateSeed: number;
  simulateHosts: number;
  /** 0: each instance type's own GPU count */
  simulateGpusPerHost: number;
  logLevel: Level;
  tuning: Tuning;
  /** replaces the stderr logger (tests) */
  logger?: Logger;
}

export type ExporterOptions = Partial<
  Omit<ExporterConfig, "host" | "tuning" | "staleAfterMs" | "detect" | "holders" | "work">
> & {
  holders?: Partial<HoldersConfig>;
  work?: Partial<WorkConfig>;
  staleAfterMs?: number;
  /** `given` defaults to the fields set here (not empty); a resolved config keeps its own */
  host?: Partial<HostConfig>;
  detect?: Partial<DetectConfig>;
  tuning?: Partial<Tuning>;
};

export class ConfigError extends Error {}

export const MIN_INTERVAL_MS = 100;
export const MAX_SIM_HOSTS = 10_000;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

export interface ListenAddress {
  /** undefined: every interface */
  host?: string;
  port: number;
}

export function parseListenAddress(text: string): ListenAddress {
  const m = /^(?:\[([0-9a-fA-F:.%\w]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text.trim());
  const port = Number(m?.[3]);
  if (!m || !Number.isInteger(port) || port > 65535) {
    throw new ConfigError(
      `invalid --web.listen-address "${text}" (use [host]:port, e.g. :9445 or 127.0.0.1:9445)`,
    );
  }
  const host = m[1] ?? m[2];
  return { host: host === "" ? undefined : host, port };
}

export function validateLabelName(name: string, what: string): void {
  if (!LABEL_NAME.test(name) || name.startsWith("__")) {
    throw new ConfigError(`${what}: "${name}" is not a valid Prometheus label name`);
  }
}

/** "team=ml" → ["team", "ml"]; labels that gpu_host_info already has are refused. */
export function parseHostLabel(text: string): [string, string] {
  const eq = text.indexOf("=");
  if (eq <= 0) throw new ConfigError(`invalid --host.label "${text}" (use key=value)`);
  const key = text.slice(0, eq).trim();
  validateLabelName(key, "--host.label");
  if (HOST_LABELS.includes(key)) {
    throw new ConfigError(`--host.label ${key}: set it with --host.${key.replace("_", "-")}`);
  }
  return [key, text.slice(eq + 1)];
}

function givenFields(host: ExporterOptions["host"]): HostField[] {
  const fields = Object.keys(HOST_FIELDS) as HostField[];
  return fields.filter((f) => host?.[f] !== undefined && host[f] !== "");
}

export function resolveConfig(opts: ExporterOptions = {}): ExporterConfig {
  const intervalMs = opts.intervalMs ?? 5000;
  const cfg: ExporterConfig = {
    listenAddress: opts.listenAddress ?? ":9445",
    telemetryPath: opts.telemetryPath ?? "/metrics",
    webConfigFile: opts.webConfigFile || undefined,
    intervalMs,
    staleAfterMs: opts.staleAfterMs ?? 3 * intervalMs,
    nvidiaSmiPath: opts.nvidiaSmiPath ?? "nvidia-smi",
    dcgmUrl: opts.dcgmUrl || undefined,
    compat: opts.compat,
    host: {
      hostname: opts.host?.hostname || osHostname(),
      provider: opts.host?.provider ?? "",
      instanceType: opts.host?.instanceType ?? "",
      region: opts.host?.region ?? "",
      zone: opts.host?.zone ?? "",
      pricingModel: opts.host?.pricingModel || "on_demand",
      instanceId: opts.host?.instanceId ?? "",
      labels: { ...opts.host?.labels },
      given: opts.host?.given ?? givenFields(opts.host),
    },
    detect: { ...DETECT_DEFAULTS, ...opts.detect },
    holders: { ...HOLDERS_DEFAULTS, ...opts.holders },
    work: { ...WORK_DEFAULTS, ...opts.work },
    simulate: opts.simulate ?? false,
    simulateSeed: opts.simulateSeed ?? 42,
    simulateHosts: opts.simulateHosts ?? 1,
    simulateGpusPerHost: opts.simulateGpusPerHost ?? 0,
    logLevel: opts.logLevel ?? "info",
    tuning: {
      migIntervalMs: 60_000,
      commandTimeoutMs: 30_000,
      startupGraceMs: 10_000,
      backoffMaxMs: 30_000,
      ...opts.tuning,
    },
    logger: opts.logger,
  };
  validate(cfg);
  return cfg;
}

function validate(cfg: ExporterConfig): void {
  parseListenAddress(cfg.listenAddress);
  const path = cfg.telemetryPath;
  if (!path.startsWith("/") || path === "/healthz" || path === "/targets.json" || path === "/") {
    throw new ConfigError(`invalid --web.telemetry-path "${path}"`);
  }
  if (!(cfg.intervalMs >= MIN_INTERVAL_MS)) {
    throw new ConfigError(`--collect.interval must be at least ${MIN_INTERVAL_MS}ms`);
  }
  if (!(cfg.staleAfterMs >= cfg.intervalMs)) {
    throw new ConfigError("--collect.stale-after must not be shorter than --collect.interval");
  }
  if (cfg.dcgmUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(cfg.dcgmUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
      throw new ConfigError(
        `invalid --dcgm.url "${cfg.dcgmUrl}" (want http(s)://host:port/metrics)`,
      );
    }
    if (cfg.simulate) throw new ConfigError("--simulate and --dcgm.url exclude each other");
  }
  if (cfg.compat !== undefined && cfg.compat !== "dcgm") {
    throw new ConfigError(`invalid --compat "${String(cfg.compat)}" (supported: dcgm)`);
  }
  if (!PRICING_MODELS.includes(cfg.host.pricingModel)) {
    throw new ConfigError(
      `invalid --host.pricing-model "${cfg.host.pricingModel}" (one of ${PRICING_MODELS.join(", ")})`,
    );
  }
  for (const key of Object.keys(cfg.host.labels)) {
    validateLabelName(key, "--host.label");
    if (HOST_LABELS.includes(key)) throw new ConfigError(`--host.label ${key} is reserved`);
  }
  validateHolders(cfg.holders);
  const work = workProblem(cfg.work);
  if (work !== undefined) throw new ConfigError(work);
  const detect = detectProblem(cfg.detect, cfg.simulate);
  if (detect !== undefined) throw new ConfigError(detect);
  if (!Number.isSafeInteger(cfg.simulateSeed)) {
    throw new ConfigError("--simulate.seed must be an integer");
  }
  const n = cfg.simulateHosts;
  if (!Number.isInteger(n) || n < 1 || n > MAX_SIM_HOSTS) {
    throw new ConfigError(`--simulate.hosts must be an integer from 1 to ${MAX_SIM_HOSTS}`);
  }
  const g = cfg.simulateGpusPerHost;
  if (!Number.isInteger(g) || g < 0 || g > 1024) {
    throw new ConfigError("--simulate.gpus-per-host must be an integer from 0 to 1024");
  }
  if (!LOG_LEVELS.includes(cfg.logLevel)) {
    throw new ConfigError(
      `invalid --log.level "${cfg.logLevel}" (one of ${LOG_LEVELS.join(", ")})`,
    );
  }
}

function validateHolders(h: HoldersConfig): void {
  if (h.procfs === "") throw new ConfigError("--path.procfs must not be empty");
  if (h.kubeletUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(h.kubeletUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
      throw new ConfigError(
        `invalid --kubelet.url "${h.kubeletUrl}" (want https://<node>:10250, or http://…)`,
      );
    }
  }
  if (!(h.timeoutMs > 0)) throw new ConfigError("--holders.timeout must be positive");
}
