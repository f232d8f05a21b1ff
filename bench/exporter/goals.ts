// Issue 27's goals for the exporter, each judged from the figures of one run: "met", or
// "not met" / "not run" with the reason. Pure, so the verdicts are tested (goals.test.ts).

export const GOALS = {
  /** requests/s at least this many times the two-collector node_exporter's */
  reqPerSecRatio: 2,
  p99Ms: 5,
  rssMiB: 60,
  /** RSS at the end of the soak at most this far above its value after the warm-up minute */
  soakGrowthMiB: 5,
} as const;

export interface Goal {
  goal: string;
  figure: string;
  verdict: string;
}

export interface LoadFigures {
  reqPerSec: number;
  p99Ms: number;
}

export interface SoakFigures {
  seconds: number;
  startMiB: number;
  /** RSS after the first minute (warm-up: JIT, heap sizing) */
  warmMiB: number;
  endMiB: number;
  maxMiB: number;
}

const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);

export function throughputGoal(
  encoding: string,
  ours: LoadFigures,
  node: LoadFigures | undefined,
  whyNoNode: string,
): Goal {
  const goal = `requests/s ≥ ${GOALS.reqPerSecRatio}× node_exporter (loadavg+meminfo), 64 GPUs, ${encoding}`;
  if (!node)
    return { goal, figure: `${f1(ours.reqPerSec)} req/s`, verdict: `not run: ${whyNoNode}` };
  const ratio = ours.reqPerSec / node.reqPerSec;
  return {
    goal,
    figure: `${f1(ours.reqPerSec)} vs ${f1(node.reqPerSec)} req/s = ${f2(ratio)}×`,
    verdict:
      ratio >= GOALS.reqPerSecRatio
        ? "met"
        : `not met: ${f2(ratio)}× is under ${GOALS.reqPerSecRatio}×`,
  };
}

export function latencyGoal(encoding: string, ours: LoadFigures, context: string): Goal {
  const goal = `p99 < ${GOALS.p99Ms} ms, 64 GPUs, ${encoding}`;
  return {
    goal,
    figure: `${f2(ours.p99Ms)} ms`,
    verdict: ours.p99Ms < GOALS.p99Ms ? "met" : `not met: ${f2(ours.p99Ms)} ms; ${context}`,
  };
}

export function rssGoal(afterLoadMiB: number, peakMiB: number, context = ""): Goal {
  const over = `not met: ${f1(afterLoadMiB - GOALS.rssMiB)} MiB over`;
  return {
    goal: `resident memory < ${GOALS.rssMiB} MiB after the load phase, 64 GPUs`,
    figure: `${f1(afterLoadMiB)} MiB (peak ${f1(peakMiB)})`,
    verdict: afterLoadMiB < GOALS.rssMiB ? "met" : context ? `${over}; ${context}` : over,
  };
}

export function soakGoal(soak: SoakFigures | undefined): Goal {
  const goal = "memory flat over a 10-minute soak at 1 s collection (start / end / max)";
  if (!soak) {
    return {
      goal,
      figure: "–",
      verdict: "not run in this invocation: run npm run bench:exporter -- --soak",
    };
  }
  const figure = `${f1(soak.startMiB)} / ${f1(soak.endMiB)} / ${f1(soak.maxMiB)} MiB (${f1(soak.warmMiB)} after 1 min)`;
  const growth = soak.endMiB - soak.warmMiB;
  if (soak.seconds < 600) {
    return { goal, figure, verdict: `not met: ran ${soak.seconds} s, not 600 s` };
  }
  return {
    goal,
    figure,
    verdict:
      growth <= GOALS.soakGrowthMiB
        ? "met"
        : `not met: grew ${f1(growth)} MiB after the first minute (limit ${GOALS.soakGrowthMiB})`,
  };
}

export function goalTable(goals: readonly Goal[]): string[] {
  return [
    "| goal | measured | verdict |",
    "|---|---:|---|",
    ...goals.map((g) => `| ${g.goal} | ${g.figure} | ${g.verdict} |`),
  ];
}
