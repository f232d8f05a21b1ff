// `npm run bench:fleet-synthetic`: the fleet API and page on a synthetic source of 100,000 GPUs
// (12,500 hosts): the app's aggregation, serialisation and paging (bench/lib/synthetic-server.ts)
// and the built fleet page drawing it in headless Chromium. A real Prometheus at that size does
// not fit these cores; bench/README.md sizes one. Prints markdown, asserts nothing.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuilt, startApp, type App } from "./lib/app.ts";
import { launch, pageReady } from "./lib/browser.ts";
import { sequentialLatency, wireBytes, type Latency } from "./lib/http.ts";
import { freePort, sleep, start, stop, waitHttp, type Proc } from "./lib/procs.ts";
import { f0, f1, median, percentile, table, type Section } from "./lib/stats.ts";

export interface SyntheticOptions {
  gpus: number;
  /** API requests, paced so that the run spans at least one snapshot rebuild */
  apiRequests: number;
  paceMs: number;
  pageLoads: number;
  /** the snapshot rebuild interval of the synthetic server (the app's collection interval) */
  rebuildMs: number;
}

export const FULL: SyntheticOptions = {
  gpus: 100_000,
  apiRequests: 200,
  paceMs: 100,
  pageLoads: 5,
  rebuildMs: 15_000,
};
export const QUICK: SyntheticOptions = { ...FULL, apiRequests: 60, paceMs: 100, pageLoads: 3 };

/** Sequential requests `paceMs` apart (the wait not counted), for a run as long as a rebuild. */
async function pacedLatency(
  url: string,
  n: number,
  paceMs: number,
): Promise<Latency & { max: number }> {
  const times: number[] = [];
  let errors = 0;
  let bytes = Number.NaN;
  for (let i = 0; i < n; i++) {
    const one = await sequentialLatency(url, 1, 0);
    times.push(one.p50);
    errors += one.errors;
    bytes = one.bytes;
    await sleep(paceMs);
  }
  return {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: Math.max(...times),
    n,
    bytes,
    errors,
  };
}

export async function runSyntheticBench(opts: SyntheticOptions): Promise<Section> {
  const builtS = ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), "gpufleet-bench-synth-"));
  const port = await freePort();
  const synth = `http://127.0.0.1:${port}`;
  let server: Proc | undefined;
  let app: App | undefined;
  const browser = await launch();
  try {
    console.error(`bench: synthetic fleet of ${opts.gpus} GPUs…`);
    server = start(
      "synthetic fleet API",
      process.execPath,
      [
        "--conditions=react-server",
        "--import",
        "tsx",
        "bench/lib/synthetic-server.ts",
        String(opts.gpus),
        String(port),
        String(opts.rebuildMs),
      ],
      { DATABASE_URL: `file:${join(dir, "unused.db")}` },
    );
    await waitHttp(server, `${synth}/stats`, 180_000);
    const summary = await pacedLatency(`${synth}/api/fleet`, opts.apiRequests, opts.paceMs);
    const gzip = await wireBytes(`${synth}/api/fleet`);
    const first = (await (await fetch(`${synth}/api/fleet`)).json()) as {
      groups: { team: { key: string }[] };
      attention: { total: number };
    };
    const team = first.groups.team[0]?.key ?? "research";
    const pageUrl = `${synth}/api/fleet/gpus?by=team&key=${encodeURIComponent(team)}&pageSize=500`;
    const gpuPage = await pacedLatency(pageUrl, Math.ceil(opts.apiRequests / 4), opts.paceMs);
    const rebuilds = ((await (await fetch(`${synth}/stats`)).json()) as { rebuildMs: number[] })
      .rebuildMs;

    // the built page, signed in to an empty app, its fleet and instance API answered by the
    // synthetic server
    const targets = join(dir, "targets.json");
    writeFileSync(targets, "[]");
    app = await startApp(dir, { mode: "embedded", targetsFile: targets });
    const ready: number[] = [];
    let failures = 0;
    for (let i = 0; i < opts.pageLoads; i++) {
      try {
        ready.push((await pageReady(browser, `${app.url}/`, opts.gpus, app.cookie, synth)).readyMs);
      } catch {
        failures++;
      }
    }
    return report(opts, {
      summary,
      gzip,
      gpuPage,
      rebuilds,
      ready,
      failures,
      builtS,
      attention: first.attention.total,
    });
  } finally {
    await browser.close();
    await stop(app?.proc);
    await stop(server);
  }
}

interface Figures {
  summary: Latency & { max: number };
  gzip: number;
  gpuPage: Latency & { max: number };
  rebuilds: number[];
  ready: number[];
  failures: number;
  builtS: number;
  attention: number;
}

function report(opts: SyntheticOptions, m: Figures): Section {
  const readyMed = m.ready.length > 0 ? median(m.ready) : Number.NaN;
  const rebuild = median(m.rebuilds);
  const n = opts.gpus.toLocaleString("en");
  return {
    title: `Fleet API and page at ${n} GPUs (synthetic source)`,
    lines: [
      ...table(
        ["request", "p50 ms", "p95 ms", "max ms", "body KiB", "requests"],
        [
          [
            "/api/fleet",
            f1(m.summary.p50),
            f1(m.summary.p95),
            f0(m.summary.max),
            f1(m.summary.bytes / 1024),
            m.summary.n,
          ],
          [
            "/api/fleet/gpus (500 GPUs)",
            f1(m.gpuPage.p50),
            f1(m.gpuPage.p95),
            f0(m.gpuPage.max),
            f1(m.gpuPage.bytes / 1024),
            m.gpuPage.n,
          ],
        ],
      ),
      "",
      `First response ${f1(m.gzip / 1024)} KiB gzip (headline, ${"groups"} by team, provider, model and state, the first 50 of ${m.attention.toLocaleString("en")} GPUs needing attention). ` +
        `Snapshot rebuild (source read, grid, headline, groups, problem list, instance rows, serialise + gzip): ${m.rebuilds.map((r) => f0(r)).join(", ")} ms (the first at start), one every ${opts.rebuildMs / 1000} s in the serving process, between yields to the requests; ${m.rebuilds.length - 1} landed while the requests ran (${opts.paceMs} ms apart). ` +
        `Page ready (headline, groups and problem list drawn; cold context): ${m.ready.map((r) => f0(r)).join(", ")} ms${m.failures > 0 ? `; ${m.failures} loads not ready in 120 s` : ""}. ` +
        "The synthetic source stands in for the metrics source and the store's host list; the page is the built app's, its /api/fleet, /api/fleet/gpus and /api/instances answered by the synthetic server." +
        (m.builtS > 0 ? ` Built first (${f0(m.builtS)} s).` : ""),
    ],
    goals: [
      {
        goal: `fleet API p95 < 200 ms at ${n} GPUs (synthetic)`,
        figure: `${f0(m.summary.p95)} ms (max ${f0(m.summary.max)})`,
        met: m.summary.p95 < 200,
        reason: `requests that land on a snapshot rebuild wait for it (median ${f0(rebuild)} ms, same event loop)`,
      },
      {
        goal: `fleet page ready < 2 s at ${n} GPUs (synthetic)`,
        figure: `${f0(readyMed)} ms median, ${f0(Math.max(...m.ready))} ms max`,
        met: m.ready.length > 0 ? readyMed < 2000 : null,
        reason:
          m.ready.length > 0
            ? "the summary is fetched after hydration (the app's own server render shows its empty store) and the instance list (every host, ~5 MB) is fetched and parsed beside it"
            : "no page load finished",
      },
    ],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const quick = process.argv.includes("--quick");
  const s = await runSyntheticBench(quick ? QUICK : FULL);
  console.log([`## ${s.title}`, "", ...s.lines, ""].join("\n"));
  for (const g of s.goals)
    console.log(`- ${g.goal}: ${g.figure} (${g.met ? "met" : `not met: ${g.reason ?? ""}`})`);
  process.exit(0);
}
