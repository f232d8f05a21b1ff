import "server-only";
import { HOUR_MS } from "../core/time.ts";
import type { Db } from "../db.ts";
import type { SimFleet, SimHostSpec } from "../../exporter/sim/types.ts";
import { served, SIM_VLLM_JOB, simWorkload } from "../../exporter/sim/work.ts";
import { insertWorkHours } from "../ingest/work-hours.ts";
import type { WorkDelta } from "../ingest/work-counters.ts";
import { hostSampleAt } from "./timeline.ts";
import { createEmbeddedSource } from "../metrics/embedded/source.ts";
import { createTrial, reportDueTrials } from "../work/trials.ts";
import type { TrialDto } from "../work/trial-schema.ts";

// The demo's work counters (issue 28): what the simulator's inference GPUs would have counted as a
// vLLM server (source "vllm"), hour by hour, in step with their simulated load: the same server,
// model and full-load tokens/s the live simulator serves (exporter/sim/work.ts, simWorkload and
// served), so the backfilled hours and the live ones name the same model at the same pace: output
// tokens = utilization × tokens/s at full load × seconds; prompts are 2.5× the output, a request
// 300 output tokens. Written through lib/ingest, the WorkHour table's writer.

/** The model each inference GPU of a host serves (one vLLM server per host, as the simulator's). */
export function servedModels(h: SimHostSpec): Map<string, string> {
  const w = simWorkload(h);
  if (w?.kind !== "vllm") return new Map();
  return new Map(h.gpus.filter((g) => g.profile === "inference").map((g) => [g.uuid, w.model]));
}

/** Output tokens per second one GPU serves at 100 % utilization (the simulator's figure). */
export function tokensPerSecond(gpuName: string): number {
  return served(gpuName).outputTokensPerGpu;
}

const SAMPLE_MS = 15 * 60_000;

/** One host's work rows over [from, to) (whole hours), from the simulator's load. */
export function demoWorkRows(
  fleet: SimFleet,
  h: SimHostSpec,
  hostId: string,
  from: number,
  to: number,
): WorkDelta[] {
  const models = servedModels(h);
  if (models.size === 0) return [];
  const rates = new Map(h.gpus.map((g) => [g.uuid, tokensPerSecond(g.name)]));
  const rows: WorkDelta[] = [];
  for (let hour = from; hour < to; hour += HOUR_MS) {
    const output = new Map<string, number>();
    for (let t = hour; t < hour + HOUR_MS; t += SAMPLE_MS) {
      for (const g of hostSampleAt(fleet, h, new Date(t)).gpus) {
        const model = models.get(g.uuid);
        if (!model) continue;
        const tokens = (g.util ?? 0) * (rates.get(g.uuid) ?? 0) * (SAMPLE_MS / 1000);
        output.set(model, (output.get(model) ?? 0) + tokens);
      }
    }
    for (const [modelName, out] of output) {
      const base = {
        hostId,
        hourStart: new Date(hour),
        modelName,
        job: SIM_VLLM_JOB,
        source: "vllm",
      };
      const tokens = Math.round(out);
      rows.push(
        { ...base, unit: "output_tokens", units: tokens },
        { ...base, unit: "prompt_tokens", units: Math.round(out * 2.5) },
        { ...base, unit: "requests", units: Math.round(tokens / 300) },
      );
    }
  }
  return rows;
}

/** Backfills every inference host's work rows over [from, to). Returns the rows written. */
export async function seedDemoWork(
  db: Db,
  fleet: SimFleet,
  ids: ReadonlyMap<number, string>,
  from: number,
  to: number,
): Promise<number> {
  let n = 0;
  for (const h of fleet.hosts) {
    const hostId = ids.get(h.id);
    if (!hostId) continue;
    const rows = demoWorkRows(fleet, h, hostId, from, to);
    await insertWorkHours(db, rows);
    n += rows.length;
  }
  return n;
}

export const DEMO_TRIAL = { name: "l4-vs-a10g", hours: 31, instanceType: "g6.xlarge" } as const;

/**
 * The demo's finished trial: its one g6.xlarge (L4) host was marked for 31 hours ending a day
 * before the seeded history ends, and its report is computed at once against the other types
 * serving the same model (the g5.xlarge A10G hosts among them).
 */
export async function seedDemoTrial(
  db: Db,
  fleet: SimFleet,
  ids: ReadonlyMap<number, string>,
  lastClosed: number,
  now: Date,
): Promise<TrialDto | null> {
  const h = fleet.hosts.find((x) => x.instanceType === DEMO_TRIAL.instanceType);
  const hostId = h ? ids.get(h.id) : undefined;
  if (!hostId) return null;
  const endsAt = lastClosed - 24 * HOUR_MS;
  const trial = await createTrial(
    {
      hostId,
      name: DEMO_TRIAL.name,
      hours: DEMO_TRIAL.hours,
      by: "demo",
      now,
      origin: "demo",
      startsAt: new Date(endsAt - DEMO_TRIAL.hours * HOUR_MS),
    },
    null,
    db,
  );
  await reportDueTrials(db, createEmbeddedSource(db, 15), now);
  return trial;
}
