// Long-run resource use: RSS and CPU time of exporter processes sampled every few seconds
// while something scrapes them, summarised as start/end/max RSS and a fitted slope.
import { sleep, usage, type Child } from "./procs.ts";

export interface SoakPoint {
  t: number;
  rss: number;
  cpuSeconds: number;
}

export interface SoakSummary {
  name: string;
  rssStartMiB: number;
  rssEndMiB: number;
  rssMaxMiB: number;
  /** RSS at the first sample a minute or more into the run (after JIT and heap sizing) */
  rssWarmMiB: number;
  /** least-squares slope over the run after its first fifth (warm-up), MiB per hour */
  slopeMiBPerHour: number;
  cpuSeconds: number;
  cpuPercent: number;
  scrapes: number;
  scrapeErrors: number;
}

const MiB = 1024 * 1024;

export function slope(points: readonly { t: number; v: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mt = points.reduce((a, p) => a + p.t, 0) / n;
  const mv = points.reduce((a, p) => a + p.v, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - mt) * (p.v - mv);
    den += (p.t - mt) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export function summarise(
  name: string,
  points: readonly SoakPoint[],
  scrapes: number,
  errors: number,
): SoakSummary {
  const first = points[0] ?? { t: 0, rss: 0, cpuSeconds: 0 };
  const last = points[points.length - 1] ?? first;
  const span = last.t - first.t;
  const settled = points.filter((p) => p.t - first.t >= span / 5);
  const perMs = slope(settled.map((p) => ({ t: p.t, v: p.rss / MiB })));
  const cpu = last.cpuSeconds - first.cpuSeconds;
  return {
    name,
    rssStartMiB: first.rss / MiB,
    rssEndMiB: last.rss / MiB,
    rssMaxMiB: Math.max(...points.map((p) => p.rss)) / MiB,
    rssWarmMiB: (points.find((p) => p.t - first.t >= 60_000) ?? last).rss / MiB,
    slopeMiBPerHour: perMs * 3_600_000,
    cpuSeconds: cpu,
    cpuPercent: span > 0 ? (cpu / (span / 1000)) * 100 : 0,
    scrapes,
    scrapeErrors: errors,
  };
}

/**
 * Samples each child every `everyMs` and scrapes its URL every `scrapeMs` for `seconds`, once
 * with each set of request headers (e.g. text and OpenMetrics, as different scrapers ask).
 */
export async function soak(
  targets: readonly { child: Child; url: string }[],
  seconds: number,
  everyMs: number,
  scrapeMs: number,
  scrapeHeaders: readonly Record<string, string>[] = [{}],
): Promise<SoakSummary[]> {
  const points = targets.map(() => [] as SoakPoint[]);
  const scrapes = targets.map(() => ({ ok: 0, bad: 0 }));
  const started = Date.now();
  const end = started + seconds * 1000;
  let nextScrape = started;
  let nextSample = started + everyMs;
  const take = () =>
    targets.forEach(({ child }, i) => points[i]?.push({ t: Date.now(), ...usage(child.pid) }));
  take();
  while (Date.now() < end) {
    if (Date.now() >= nextScrape) {
      nextScrape += scrapeMs;
      await Promise.all(
        targets.map(async ({ url }, i) => {
          const counter = scrapes[i];
          if (!counter) return;
          for (const headers of scrapeHeaders) {
            try {
              const res = await fetch(url, { headers });
              await res.arrayBuffer();
              if (res.ok) counter.ok++;
              else counter.bad++;
            } catch {
              counter.bad++;
            }
          }
        }),
      );
    }
    // wake for whichever comes first: the next scrape or the next sample
    const wake = Math.min(nextSample, nextScrape, end);
    await sleep(Math.max(0, wake - Date.now()));
    if (Date.now() >= nextSample || Date.now() >= end) {
      nextSample += everyMs;
      take();
    }
  }
  return targets.map(({ child }, i) =>
    summarise(child.name, points[i] ?? [], scrapes[i]?.ok ?? 0, scrapes[i]?.bad ?? 0),
  );
}
