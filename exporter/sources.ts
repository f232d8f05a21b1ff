// Builds the hosts (state + registry each) and the one source that feeds them, from config.

import type { Host, Source } from "./collect.ts";
import { DcgmSource } from "./collectors/dcgm.ts";
import { NvidiaSmiSource } from "./collectors/nvidia-smi.ts";
import { SimulatedSource } from "./collectors/simulated.ts";
import { validateLabelName, type ExporterConfig } from "./config.ts";
import { buildAttributor } from "./holders/build.ts";
import type { Logger } from "./log.ts";
import { HostMetrics } from "./metrics.ts";
import { buildFleet } from "./sim/fleet.ts";
import type { SimHostSpec } from "./sim/types.ts";
import { HostState } from "./state.ts";
import { VERSION } from "./version.ts";
import { withWork } from "./work/source.ts";

function makeHost(
  id: number,
  info: Record<string, string>,
  cfg: ExporterConfig,
  log: Logger,
): Host {
  const { intervalMs, staleAfterMs, tuning } = cfg;
  const state = new HostState({
    staleAfterMs,
    // streamed process lines only say "still there"; 2.5 intervals tolerates one late loop
    processTtlMs: Math.max(2.5 * intervalMs, cfg.simulate ? staleAfterMs : 0),
    migTtlMs: Math.max(2.5 * tuning.migIntervalMs, staleAfterMs),
  });
  const metrics = new HostMetrics({
    hostInfo: info,
    compatDcgm: cfg.compat === "dcgm",
    version: VERSION,
    log,
  });
  return { id, info, state, metrics };
}

function simHostInfo(
  spec: SimHostSpec,
  extra: Record<string, string>,
  log: Logger,
  cloudLabels: boolean,
): Record<string, string> {
  // zone where the design gives one, or where detection may fill it (host 0); every simulated
  // cloud host reports its instance id (detection on host 0 replaces it when it finds one)
  const info: Record<string, string> = {
    hostname: spec.hostname,
    provider: spec.provider,
    instance_type: spec.instanceType,
    region: spec.region,
    ...(cloudLabels || spec.zone ? { zone: spec.zone ?? "" } : {}),
    pricing_model: spec.pricingModel,
    ...(cloudLabels || spec.instanceId ? { instance_id: spec.instanceId ?? "" } : {}),
    team: spec.team,
    project: spec.project,
  };
  for (const [k, v] of Object.entries({ ...spec.labels, ...extra })) {
    try {
      validateLabelName(k, "simulated host label");
      if (!(k in info) || k === "team" || k === "project") info[k] = v;
    } catch (err) {
      log.limited(`sim-label:${k}`, "warn", "dropping host label", { err: String(err) });
    }
  }
  return info;
}

export function buildSource(cfg: ExporterConfig, log: Logger): Source {
  return withWork(buildGpuSource(cfg, log), cfg.work, cfg.intervalMs, log);
}

function buildGpuSource(cfg: ExporterConfig, log: Logger): Source {
  const { tuning } = cfg;
  if (cfg.simulate) {
    const fleet = buildFleet({
      seed: cfg.simulateSeed,
      hosts: cfg.simulateHosts,
      ...(cfg.simulateGpusPerHost > 0 ? { gpusPerHost: cfg.simulateGpusPerHost } : {}),
    });
    // with --simulate, host 0 stands for this machine: cloud detection applies to it alone
    const detecting = cfg.detect.mode !== "none";
    const hosts = fleet.hosts.map((spec, i) =>
      makeHost(i, simHostInfo(spec, cfg.host.labels, log, detecting && i === 0), cfg, log),
    );
    return new SimulatedSource(fleet, hosts, {
      migIntervalMs: tuning.migIntervalMs,
      log,
      holders: cfg.holders.enabled,
    });
  }
  const h = cfg.host;
  const host = makeHost(
    0,
    {
      hostname: h.hostname,
      provider: h.provider,
      instance_type: h.instanceType,
      region: h.region,
      zone: h.zone,
      pricing_model: h.pricingModel,
      instance_id: h.instanceId,
      ...h.labels,
    },
    cfg,
    log,
  );
  if (cfg.dcgmUrl !== undefined) {
    const timeoutMs = Math.min(Math.max(cfg.intervalMs, 1000), 10_000);
    return new DcgmSource(host, { url: cfg.dcgmUrl, intervalMs: cfg.intervalMs, timeoutMs, log });
  }
  return new NvidiaSmiSource(host, {
    path: cfg.nvidiaSmiPath,
    intervalMs: cfg.intervalMs,
    commandTimeoutMs: tuning.commandTimeoutMs,
    migIntervalMs: tuning.migIntervalMs,
    startupGraceMs: tuning.startupGraceMs,
    backoffMaxMs: tuning.backoffMaxMs,
    log,
    attributor: cfg.holders.enabled ? buildAttributor(cfg.holders, log) : undefined,
  });
}
