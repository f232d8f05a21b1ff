import { INTERRUPTED_STATE } from "../ingest/host-state.ts";
import { formatAge } from "../format/time.ts";
import {
  eccParamsSchema,
  temperatureParamsSchema,
  throttleParamsSchema,
  type MissedParams,
} from "../zod/schemas/rule.ts";
import {
  hostInScope,
  ownerNote,
  type Condition,
  type GpuFacts,
  type HostFacts,
  type RuleFacts,
} from "./facts.ts";
import { MIN_COVERAGE } from "./evaluate-idle.ts";
import type { GpuWindowStats } from "../metrics/source.ts";

// Health rules: an exporter or GPU that stopped reporting (from the store's lastSeen, kept by the
// collector in both modes), and ECC / temperature / throttling from the metrics window.

const SLACK_MS = 5_000;

function missedParams(rule: RuleFacts): MissedParams {
  const n = rule.params.missedIntervals;
  return { missedIntervals: typeof n === "number" && n >= 1 ? n : 2 };
}

/**
 * Silence up to `now`. `observedFrom`: in Prometheus mode, when the metrics backend answers again
 * after an outage (lib/alerts/backend-state.ts); lastSeen could not move while it was down, so
 * silence is counted from then.
 */
function silentMs(
  lastSeen: Date | null,
  firstSeen: Date,
  now: Date,
  observedFrom: Date | null = null,
): number {
  const from = (lastSeen ?? firstSeen).getTime();
  return now.getTime() - Math.max(from, observedFrom?.getTime() ?? from);
}

function base(host: HostFacts, gpu: GpuFacts | null) {
  return {
    hostId: host.id,
    gpuUuid: gpu?.uuid ?? null,
    team: host.team,
    project: host.project,
  };
}

function gpuLabel(host: HostFacts, gpu: GpuFacts | undefined, uuid: string): string {
  return `${gpu ? `GPU ${gpu.index}` : uuid} on ${host.hostname}`;
}

export function evaluateExporterDown(
  rule: RuleFacts,
  hosts: Iterable<HostFacts>,
  now: Date,
  intervalS: number,
  observedFrom: Date | null = null,
): Condition[] {
  const limit = missedParams(rule).missedIntervals * intervalS * 1000 + SLACK_MS;
  const out: Condition[] = [];
  for (const h of hosts) {
    if (!hostInScope(rule, h)) continue;
    // reclaimed under an announced spot interruption: the provider's doing, not an outage
    if (h.state === INTERRUPTED_STATE) continue;
    const silent = silentMs(h.lastSeen, h.firstSeen, now, observedFrom);
    if (silent <= limit) continue;
    const since = h.lastSeen ? `last seen ${formatAge(h.lastSeen, now.getTime())}` : "never seen";
    out.push({
      fingerprint: `${rule.id}:host:${h.id}`,
      severity: "critical",
      ...base(h, null),
      summary: `Exporter on ${h.hostname} not reporting (${since})${h.lastError ? `: ${h.lastError}` : ""}${ownerNote(h.owner)}`,
      details: {
        hostname: h.hostname,
        owner: h.owner,
        lastSeen: h.lastSeen?.toISOString() ?? null,
        lastError: h.lastError,
        silentSeconds: Math.round(silent / 1000),
        missedIntervals: Math.floor(silent / (intervalS * 1000)),
      },
    });
  }
  return out;
}

export function evaluateGpuMissing(
  rule: RuleFacts,
  hosts: ReadonlyMap<string, HostFacts>,
  gpus: Iterable<GpuFacts>,
  now: Date,
  intervalS: number,
  observedFrom: Date | null = null,
): Condition[] {
  const limit = missedParams(rule).missedIntervals * intervalS * 1000 + SLACK_MS;
  const out: Condition[] = [];
  for (const g of gpus) {
    if (g.parentUuid !== null) continue;
    const h = hosts.get(g.hostId);
    if (!h || !hostInScope(rule, h)) continue;
    // A silent host is the exporter rule's alert; only a GPU missing from a live host is this one.
    if (silentMs(h.lastSeen, h.firstSeen, now, observedFrom) > limit) continue;
    const silent = silentMs(g.lastSeen, g.firstSeen, now, observedFrom);
    if (silent <= limit) continue;
    const since = g.lastSeen ? `last seen ${formatAge(g.lastSeen, now.getTime())}` : "never seen";
    out.push({
      fingerprint: `${rule.id}:gpu:${g.uuid}`,
      severity: "critical",
      ...base(h, g),
      summary: `${gpuLabel(h, g, g.uuid)} stopped reporting (${since}) while the host reports${ownerNote(h.owner)}`,
      details: {
        hostname: h.hostname,
        owner: h.owner,
        gpuIndex: g.index,
        gpuName: g.name,
        lastSeen: g.lastSeen?.toISOString() ?? null,
        silentSeconds: Math.round(silent / 1000),
      },
    });
  }
  return out;
}

interface StatsInput {
  rule: RuleFacts;
  stats: readonly GpuWindowStats[];
  hosts: ReadonlyMap<string, HostFacts>;
  gpus: ReadonlyMap<string, GpuFacts>;
}

function inScope({ rule, stats, hosts }: StatsInput) {
  return stats.flatMap((s) => {
    const h = hosts.get(s.hostId);
    return h && hostInScope(rule, h) ? [{ s, h }] : [];
  });
}

export function evaluateEcc(input: StatsInput): Condition[] {
  const p = eccParamsSchema.parse(input.rule.params);
  return inScope(input).flatMap(({ s, h }) => {
    const n = s.eccUncorrectedIncrease;
    if (n === null || n < p.minIncrease) return [];
    const g = input.gpus.get(s.gpuUuid);
    const hours = Math.round((p.windowMinutes / 60) * 10) / 10;
    return [
      {
        fingerprint: `${input.rule.id}:gpu:${s.gpuUuid}`,
        severity: "critical" as const,
        ...base(h, g ?? null),
        gpuUuid: s.gpuUuid,
        summary: `${gpuLabel(h, g, s.gpuUuid)}: ${n} new uncorrected ECC error${n === 1 ? "" : "s"} in ${hours} h; drain and reset or replace it${ownerNote(h.owner)}`,
        details: {
          hostname: h.hostname,
          owner: h.owner,
          gpuIndex: g?.index ?? null,
          increase: n,
          windowMinutes: p.windowMinutes,
        },
      },
    ];
  });
}

export function evaluateTemperature(input: StatsInput): Condition[] {
  const p = temperatureParamsSchema.parse(input.rule.params);
  return inScope(input).flatMap(({ s, h }) => {
    if (s.tempAvg === null || s.tempCoverage < MIN_COVERAGE || s.tempAvg <= p.limitCelsius)
      return [];
    const g = input.gpus.get(s.gpuUuid);
    return [
      {
        fingerprint: `${input.rule.id}:gpu:${s.gpuUuid}`,
        severity: "warning" as const,
        ...base(h, g ?? null),
        gpuUuid: s.gpuUuid,
        summary: `${gpuLabel(h, g, s.gpuUuid)} at ${s.tempAvg.toFixed(1)} °C over ${p.durationMinutes} min, above ${p.limitCelsius} °C${ownerNote(h.owner)}`,
        details: {
          hostname: h.hostname,
          owner: h.owner,
          gpuIndex: g?.index ?? null,
          tempAvg: s.tempAvg,
          limitCelsius: p.limitCelsius,
          windowMinutes: p.durationMinutes,
        },
      },
    ];
  });
}

export function evaluateThrottle(input: StatsInput): Condition[] {
  const p = throttleParamsSchema.parse(input.rule.params);
  return inScope(input).flatMap(({ s, h }) => {
    if (s.throttleCoverage < MIN_COVERAGE) return [];
    const hits = p.classes.flatMap((c) => {
      const r = c === "thermal" ? s.thermalRatio : s.powerRatio;
      return r !== null && r >= p.minRatio ? [{ c, r }] : [];
    });
    if (hits.length === 0) return [];
    const g = input.gpus.get(s.gpuUuid);
    const what = hits.map((x) => `${x.c} ${Math.round(x.r * 100)} %`).join(", ");
    return [
      {
        fingerprint: `${input.rule.id}:gpu:${s.gpuUuid}`,
        severity: "warning" as const,
        ...base(h, g ?? null),
        gpuUuid: s.gpuUuid,
        summary: `${gpuLabel(h, g, s.gpuUuid)} throttled for ${p.durationMinutes} min (${what} of the time)${ownerNote(h.owner)}`,
        details: {
          hostname: h.hostname,
          owner: h.owner,
          gpuIndex: g?.index ?? null,
          thermalRatio: s.thermalRatio,
          powerRatio: s.powerRatio,
          classes: hits.map((x) => x.c),
          windowMinutes: p.durationMinutes,
        },
      },
    ];
  });
}
