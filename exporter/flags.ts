// Command-line flags in the Prometheus exporters' style (--web.listen-address, ...), each
// with an environment variable (GPU_EXPORTER_WEB_LISTEN_ADDRESS); a flag beats its variable.

import { parseArgs } from "node:util";
import {
  ConfigError,
  resolveConfig,
  parseHostLabel,
  type ExporterConfig,
  type ExporterOptions,
  type HoldersConfig,
  type PricingModel,
} from "./config.ts";
import { parseDuration } from "./duration.ts";
import type { DetectConfig, DetectMode } from "./host/options.ts";
import type { Level } from "./log.ts";
import type { WorkConfig } from "./work/config.ts";

interface FlagDef {
  name: string;
  help: string;
  /** shown in --help; undefined for flags without a default */
  def?: string;
  boolean?: true;
  multiple?: true;
  /** what --help shows after "=" (default VALUE) */
  value?: string;
}

export const FLAGS: FlagDef[] = [
  {
    name: "web.listen-address",
    def: ":9445",
    help: "Address to listen on for metrics and /healthz.",
  },
  { name: "web.telemetry-path", def: "/metrics", help: "Path under which to expose metrics." },
  {
    name: "web.config.file",
    def: "",
    help: "exporter-toolkit web config (YAML) enabling TLS and/or basic auth.",
  },
  { name: "collect.interval", def: "5s", help: "How often GPUs are sampled (500ms, 5s, 1m)." },
  {
    name: "collect.stale-after",
    def: "3x collect.interval",
    help: "Drop a GPU's series when it was not refreshed for this long.",
  },
  { name: "nvidia-smi.path", def: "nvidia-smi", help: "nvidia-smi binary (searched in PATH)." },
  { name: "dcgm.url", def: "", help: "Read GPUs from this dcgm-exporter /metrics URL instead." },
  { name: "compat", def: "", help: "Also emit another exporter's metric names: dcgm." },
  {
    name: "host.detect",
    def: "none",
    help: "Read provider, instance type, region, zone, pricing model and instance id from the cloud metadata service: auto, aws, gcp, azure, alibaba, tencent or none. A --host.* flag given explicitly wins.",
  },
  {
    name: "host.detect.endpoint",
    def: "",
    help: "Base URL of the metadata service for the provider named by --host.detect (proxies, tests); not with auto.",
  },
  { name: "host.detect.timeout", def: "500ms", help: "Each metadata request gives up after this." },
  {
    name: "host.detect.refresh-interval",
    def: "1h",
    help: "Read the metadata again this often (never per scrape).",
  },
  {
    name: "host.interruption.poll-interval",
    def: "5s",
    help: "On spot hosts, poll the provider's interruption notice this often.",
  },
  { name: "host.provider", def: "", help: "gpu_host_info provider label (aws, gcp, azure, ...)." },
  { name: "host.instance-type", def: "", help: "gpu_host_info instance_type label." },
  { name: "host.region", def: "", help: "gpu_host_info region label." },
  { name: "host.zone", def: "", help: "gpu_host_info zone label." },
  {
    name: "host.pricing-model",
    def: "on_demand",
    help: "gpu_host_info pricing_model label: on_demand, spot or reserved.",
  },
  { name: "host.instance-id", def: "", help: "gpu_host_info instance_id label." },
  { name: "host.hostname", def: "os.hostname()", help: "gpu_host_info hostname label." },
  {
    name: "host.label",
    multiple: true,
    value: "KEY=VALUE",
    help: "Extra gpu_host_info label key=value, repeatable (env: comma-separated).",
  },
  {
    name: "simulate",
    boolean: true,
    def: "false",
    help: "Serve a simulated fleet (demo, tests); host labels come from it, plus --host.label.",
  },
  { name: "simulate.seed", def: "42", help: "Seed of the simulated fleet." },
  {
    name: "simulate.hosts",
    def: "1",
    help: "Simulated hosts; host i is served at /hosts/<i>/metrics, all in /targets.json.",
  },
  {
    name: "simulate.gpus-per-host",
    def: "0",
    help: "Give every simulated host this many GPUs (benchmarks); 0 keeps each type's count.",
  },
  {
    name: "collect.holders",
    boolean: true,
    def: "true",
    help: "Label each compute process with its holder (user, container, pod, Slurm job) read from /proc at collection time.",
  },
  { name: "path.procfs", def: "/proc", help: "Where the host's /proc is mounted." },
  {
    name: "docker.socket",
    def: "",
    help: "Docker Engine API socket (e.g. /var/run/docker.sock): add container names; off when empty.",
  },
  {
    name: "kubelet.url",
    def: "",
    help: "kubelet base URL (e.g. https://$NODE_IP:10250): add namespace, pod and container names from its /pods; off when empty.",
  },
  {
    name: "kubelet.token-file",
    def: "/var/run/secrets/kubernetes.io/serviceaccount/token",
    help: "Bearer token for the kubelet, read at each refresh.",
  },
  { name: "kubelet.ca-file", def: "", help: "CA bundle (PEM) for the kubelet's certificate." },
  {
    name: "kubelet.insecure-skip-verify",
    boolean: true,
    def: "false",
    help: "Do not verify the kubelet's certificate (its default one is self-signed).",
  },
  {
    name: "slurm.scontrol",
    def: "",
    help: "scontrol binary (e.g. scontrol): add a Slurm job's user and account; off when empty.",
  },
  {
    name: "holders.timeout",
    def: "2s",
    help: "Each enrichment request or command (Docker, kubelet, scontrol, getent) gives up after this.",
  },
  {
    name: "collector.textfile.directory",
    def: "",
    help: "Read work counters from the *.prom files in this directory at each collection (as node_exporter's textfile collector): jobs write gpufleet_work_units_total{unit,job,model_name} atomically (tmp file, then rename). Only that metric is served; off when empty.",
  },
  {
    name: "work.scrape",
    multiple: true,
    value: "URL",
    help: "An inference server's /metrics (vLLM, SGLang, TGI, Triton) to read at each collection and serve as gpufleet_work_units_total, repeatable (env: comma-separated); loopback only unless --work.scrape.allow-host names the host.",
  },
  {
    name: "work.scrape.timeout",
    def: "2s",
    help: "Each --work.scrape request gives up after this (at most --collect.interval).",
  },
  {
    name: "work.scrape.allow-host",
    multiple: true,
    value: "HOST",
    help: "A non-loopback host that --work.scrape may read, repeatable (env: comma-separated).",
  },
  { name: "log.level", def: "info", help: "Log level: debug, info, warn, error." },
];

export function envName(flag: string): string {
  return `GPU_EXPORTER_${flag.toUpperCase().replace(/[.-]/g, "_")}`;
}

export function helpText(): string {
  const lines = [
    "usage: gpu-exporter [<flags>]",
    "",
    "Prometheus exporter for NVIDIA GPUs: nvidia-smi (default), dcgm-exporter, or simulated.",
    "",
    "Flags:",
    "  -h, --help  Show this help and exit.",
    "  --version   Show the version and exit.",
  ];
  for (const f of FLAGS) {
    const shown = f.boolean ? `--${f.name}, --no-${f.name}` : `--${f.name}=${f.value ?? "VALUE"}`;
    lines.push(`  ${shown}`);
    const def = f.def === undefined ? "" : ` Default: ${JSON.stringify(f.def)}.`;
    lines.push(`      ${f.help}${def} Env: ${envName(f.name)}.`);
  }
  return lines.join("\n") + "\n";
}

export type CliResult =
  | { kind: "run"; config: ExporterConfig }
  | { kind: "help"; text: string }
  | { kind: "version" }
  | { kind: "error"; message: string };

function parseBoolEnv(name: string, value: string): boolean {
  if (/^(1|true|yes)$/i.test(value)) return true;
  if (/^(0|false|no|)$/i.test(value)) return false;
  throw new ConfigError(`${name}="${value}" is not a boolean (true/false)`);
}

function duration(flag: string, text: string): number {
  const ms = parseDuration(text);
  if (ms instanceof Error) throw new ConfigError(`--${flag}: ${ms.message}`);
  return ms;
}

function integer(flag: string, text: string): number {
  if (!/^-?\d+$/.test(text.trim())) throw new ConfigError(`--${flag}: "${text}" is not an integer`);
  return Number(text);
}

function detectOptions(str: (name: string) => string | undefined): Partial<DetectConfig> {
  const d: Partial<DetectConfig> = {};
  const mode = str("host.detect");
  if (mode !== undefined && mode !== "") d.mode = mode as DetectMode; // validated later
  const endpoint = str("host.detect.endpoint");
  if (endpoint !== undefined && endpoint !== "") d.endpoint = endpoint;
  const durations = [
    ["host.detect.timeout", "timeoutMs"],
    ["host.detect.refresh-interval", "refreshMs"],
    ["host.interruption.poll-interval", "pollMs"],
  ] as const;
  for (const [flag, key] of durations) {
    const text = str(flag);
    if (text !== undefined) d[key] = duration(flag, text);
  }
  return d;
}

/** A repeatable flag's values, or its variable's comma-separated list. */
function list(
  values: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
  name: string,
): string[] {
  const flags = values[name];
  if (Array.isArray(flags)) return flags.filter((v): v is string => typeof v === "string");
  return (env[envName(name)] ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
}

function workOptions(
  str: (name: string) => string | undefined,
  many: (name: string) => string[],
): Partial<WorkConfig> {
  const w: Partial<WorkConfig> = {
    scrape: many("work.scrape"),
    allowHosts: many("work.scrape.allow-host"),
  };
  const dir = str("collector.textfile.directory");
  if (dir !== undefined && dir !== "") w.textfileDir = dir;
  const timeout = str("work.scrape.timeout");
  if (timeout !== undefined) w.scrapeTimeoutMs = duration("work.scrape.timeout", timeout);
  return w;
}

function bool(
  values: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
  name: string,
): boolean | undefined {
  if (values[name] === true) return true;
  if (values[`no-${name}`] === true) return false;
  const e = env[envName(name)];
  return e === undefined ? undefined : parseBoolEnv(envName(name), e);
}

function holderOptions(
  str: (name: string) => string | undefined,
  flag: (name: string) => boolean | undefined,
): Partial<HoldersConfig> {
  const h: Partial<HoldersConfig> = {};
  const enabled = flag("collect.holders");
  if (enabled !== undefined) h.enabled = enabled;
  const insecure = flag("kubelet.insecure-skip-verify");
  if (insecure !== undefined) h.kubeletInsecure = insecure;
  const procfs = str("path.procfs");
  if (procfs !== undefined) h.procfs = procfs;
  const optional = [
    ["docker.socket", "dockerSocket"],
    ["kubelet.url", "kubeletUrl"],
    ["kubelet.ca-file", "kubeletCaFile"],
    ["slurm.scontrol", "scontrolPath"],
  ] as const;
  for (const [name, key] of optional) {
    const v = str(name);
    if (v !== undefined && v !== "") h[key] = v;
  }
  const token = str("kubelet.token-file");
  if (token !== undefined) h.kubeletTokenFile = token;
  const timeout = str("holders.timeout");
  if (timeout !== undefined) h.timeoutMs = duration("holders.timeout", timeout);
  return h;
}

export function parseCli(
  argv: string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): CliResult {
  try {
    const options: Record<
      string,
      { type: "string" | "boolean"; multiple?: boolean; short?: string }
    > = { help: { type: "boolean", short: "h" }, version: { type: "boolean" } };
    for (const f of FLAGS) {
      options[f.name] = { type: f.boolean ? "boolean" : "string", multiple: f.multiple === true };
      if (f.boolean) options[`no-${f.name}`] = { type: "boolean" };
    }
    const { values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false });
    if (values.help) return { kind: "help", text: helpText() };
    if (values.version) return { kind: "version" };

    const str = (name: string): string | undefined => {
      const v = values[name];
      if (typeof v === "string") return v;
      return env[envName(name)];
    };
    const opts: ExporterOptions = { host: {} };
    const host = opts.host ?? {};
    opts.listenAddress = str("web.listen-address");
    opts.telemetryPath = str("web.telemetry-path");
    opts.webConfigFile = str("web.config.file");
    const interval = str("collect.interval");
    if (interval !== undefined) opts.intervalMs = duration("collect.interval", interval);
    const stale = str("collect.stale-after");
    if (stale !== undefined) opts.staleAfterMs = duration("collect.stale-after", stale);
    opts.nvidiaSmiPath = str("nvidia-smi.path");
    opts.dcgmUrl = str("dcgm.url");
    const compat = str("compat");
    if (compat !== undefined && compat !== "") {
      if (compat !== "dcgm")
        throw new ConfigError(`invalid --compat "${compat}" (supported: dcgm)`);
      opts.compat = compat;
    }
    host.provider = str("host.provider");
    host.instanceType = str("host.instance-type");
    host.region = str("host.region");
    host.zone = str("host.zone");
    host.pricingModel = str("host.pricing-model") as PricingModel | undefined; // validated later
    host.instanceId = str("host.instance-id");
    host.hostname = str("host.hostname");
    opts.detect = detectOptions(str);
    const labelFlags = values["host.label"];
    const labelEnv = env[envName("host.label")];
    const labels = Array.isArray(labelFlags)
      ? labelFlags.filter((l): l is string => typeof l === "string")
      : (labelEnv ?? "").split(",").filter((l) => l.trim() !== "");
    host.labels = {};
    for (const l of labels) {
      const [k, v] = parseHostLabel(l);
      if (k in host.labels) throw new ConfigError(`--host.label ${k} given twice`);
      host.labels[k] = v;
    }
    if (values.simulate === true) opts.simulate = true;
    else if (values["no-simulate"] === true) opts.simulate = false;
    else if (env[envName("simulate")] !== undefined) {
      opts.simulate = parseBoolEnv(envName("simulate"), env[envName("simulate")] ?? "");
    }
    const seed = str("simulate.seed");
    if (seed !== undefined) opts.simulateSeed = integer("simulate.seed", seed);
    const hosts = str("simulate.hosts");
    if (hosts !== undefined) opts.simulateHosts = integer("simulate.hosts", hosts);
    const perHost = str("simulate.gpus-per-host");
    if (perHost !== undefined)
      opts.simulateGpusPerHost = integer("simulate.gpus-per-host", perHost);
    opts.holders = holderOptions(str, (name) => bool(values, env, name));
    opts.work = workOptions(str, (name) => list(values, env, name));
    opts.logLevel = str("log.level") as Level | undefined; // validated in resolveConfig
    return { kind: "run", config: resolveConfig(opts) };
  } catch (err) {
    if (err instanceof ConfigError) return { kind: "error", message: err.message };
    // parseArgs throws TypeErrors with codes like ERR_PARSE_ARGS_UNKNOWN_OPTION.
    if (err instanceof TypeError && "code" in err) return { kind: "error", message: err.message };
    throw err;
  }
}
