// `npm run bench:fleet [-- --quick]`: the fleet API (/api/fleet) and the fleet page at 100, 1,000 and
// 10,000 simulated GPUs, embedded and Prometheus modes side by side; plus the read API under many
// concurrent clients. Loopback only; prints markdown, asserts nothing.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { Browser } from "@playwright/test";
import {
  ensureBuilt,
  startApp,
  waitFleet,
  type App,
  type FleetReady,
  type Mode,
} from "./lib/app.ts";
import { launch, pageReady, type PageLoad } from "./lib/browser.ts";
import { load, sequentialLatency, wireBytes, type Latency, type Load } from "./lib/http.ts";
import { stop } from "./lib/procs.ts";
import { hasPrometheus, startPrometheus, waitScraped, type Prom } from "./lib/prometheus.ts";
import { startSim } from "./lib/sim.ts";
import { f0, f1, median, table, type Section } from "./lib/stats.ts";

export interface FleetOptions {
  sizes: number[];
  modes: Mode[];
  apiRequests: number;
  pageLoads: number;
  /** the size at which the load test runs (0: none) */
  loadAt: number;
  loadSeconds: number;
  loadConnections: number;
}

export const FULL: FleetOptions = {
  sizes: [100, 1000, 10000],
  modes: ["embedded", "prometheus"],
  apiRequests: 100,
  pageLoads: 5,
  loadAt: 1000,
  loadSeconds: 60,
  loadConnections: 200,
};

export const QUICK: FleetOptions = { ...FULL, apiRequests: 20, pageLoads: 3, loadSeconds: 10 };

/** Hosts × GPUs per host for each fleet size. */
function shape(gpus: number): { hosts: number; perHost: number } {
  return gpus <= 100
    ? { hosts: Math.ceil(gpus / 4), perHost: 4 }
    : { hosts: Math.ceil(gpus / 8), perHost: 8 };
}

interface Row {
  gpus: number;
  mode: Mode;
  setupS: number;
  reporting: number;
  pageFailures: number;
  /** why figures are missing or need a caveat */
  note?: string;
  api: Latency;
  /** the /api/fleet answer as sent to a client taking gzip */
  gzipBytes: number;
  readyMs: number[];
  jsKiB: number;
  load?: Load;
}

async function measure(
  app: App,
  browser: Browser,
  gpus: number,
  mode: Mode,
  opts: FleetOptions,
  ready: FleetReady,
): Promise<Row> {
  const api = await sequentialLatency(`${app.url}/api/fleet`, opts.apiRequests, 3, 120_000, {
    cookie: app.cookie,
  });
  const gzipBytes = await wireBytes(`${app.url}/api/fleet`, { cookie: app.cookie });
  const loads: PageLoad[] = [];
  let pageFailures = 0;
  for (let i = 0; i < opts.pageLoads; i++) {
    try {
      loads.push(await pageReady(browser, `${app.url}/`, ready.grid, app.cookie));
    } catch {
      pageFailures++; // not ready within the page's 120 s wait
    }
  }
  const row: Row = {
    gpus,
    mode,
    setupS: ready.seconds,
    reporting: ready.reporting,
    api,
    gzipBytes,
    readyMs: loads.length > 0 ? loads.map((l) => l.readyMs) : [Number.NaN],
    pageFailures,
    jsKiB: (loads[0]?.jsBytes ?? 0) / 1024,
  };
  if (opts.loadAt === gpus) {
    console.error(
      `bench: ${opts.loadConnections} clients on /api/fleet for ${opts.loadSeconds} s (${mode})…`,
    );
    row.load = await load(`${app.url}/api/fleet`, opts.loadSeconds, opts.loadConnections, {
      cookie: app.cookie,
    });
  }
  return row;
}

export async function runFleetBench(opts: FleetOptions): Promise<Section[]> {
  const built = ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), "gpufleet-bench-fleet-"));
  const browser = await launch();
  const rows: Row[] = [];
  const modes = opts.modes.filter((m) => m === "embedded" || hasPrometheus);
  try {
    for (const gpus of opts.sizes) {
      const { hosts, perHost } = shape(gpus);
      const sim = await startSim(hosts, perHost, dir);
      try {
        for (const mode of modes) {
          console.error(`bench: ${gpus} GPUs (${hosts} hosts), ${mode} mode…`);
          const t0 = Date.now();
          let prom: Prom | undefined;
          let app: App | undefined;
          try {
            if (mode === "prometheus") {
              prom = await startPrometheus(dir, sim.targetsFile, { interval: "15s" });
              await waitScraped(prom, sim.targets);
              app = await startApp(dir, { mode, prometheusUrl: prom.url });
            } else app = await startApp(dir, { mode, targetsFile: sim.targetsFile });
            const ready = {
              ...(await waitFleet(app, hosts * perHost)),
              seconds: (Date.now() - t0) / 1000,
            };
            const row = await measure(app, browser, hosts * perHost, mode, opts, ready);
            const notes = [];
            if (ready.reporting < hosts * perHost * 0.95)
              notes.push(`only ${ready.reporting} of ${hosts * perHost} GPUs reporting`);
            if (row.pageFailures > 0)
              notes.push(`${row.pageFailures} of ${opts.pageLoads} page loads not ready in 120 s`);
            if (row.api.errors > 0)
              notes.push(`${row.api.errors} of ${row.api.n} API requests failed or took > 120 s`);
            if (notes.length > 0) row.note = notes.join("; ");
            rows.push(row);
          } catch (e) {
            const msg = (e as Error).message.split("\n")[0] ?? "";
            console.error(`bench: ${gpus} GPUs ${mode}: ${msg}`);
            rows.push({ ...failed(hosts * perHost, mode), note: `failed: ${msg}` });
          } finally {
            await stop(app?.proc);
            await stop(prom?.proc);
          }
        }
      } finally {
        await stop(sim.proc);
      }
    }
  } finally {
    await browser.close();
  }
  return report(rows, opts, built, modes);
}

function failed(gpus: number, mode: Mode): Row {
  const nan = Number.NaN;
  return {
    gpus,
    mode,
    setupS: nan,
    reporting: 0,
    pageFailures: 0,
    api: { p50: nan, p95: nan, n: 0, bytes: nan, errors: 0 },
    gzipBytes: nan,
    readyMs: [nan],
    jsKiB: nan,
  };
}

const GOALS_10K = {
  p95: "fleet API p95 < 50 ms at 10,000 GPUs (prometheus mode)",
  size: "fleet API first response < 200 KB gzip at 10,000 GPUs",
  ready: "fleet page ready < 1.0 s at 10,000 GPUs (prometheus mode)",
};

/** The issue's goals at 10,000 GPUs in Prometheus mode, each with what limits it when missed. */
function goals10k(r: Row): Section["goals"] {
  const ready = median(r.readyMs);
  const kb = r.gzipBytes / 1000;
  if (r.api.n === 0) {
    // the run did not get as far as measuring: say why, not a reason for a figure it never had
    const why = r.note ?? "the run stopped before measuring";
    return Object.values(GOALS_10K).map((goal) => ({ goal, figure: "–", met: null, reason: why }));
  }
  return [
    {
      goal: GOALS_10K.p95,
      figure: `${f0(r.api.p95)} ms (p50 ${f1(r.api.p50)})`,
      met: r.api.p95 < 50,
      reason:
        r.api.p50 < 50
          ? "the tail: requests that arrive while the snapshot is rebuilt (once per 15 s, same event loop as the requests) wait for it; the bench, Prometheus, the simulator and Chromium share 2 cores"
          : "every request is slow: the serving process is starved of CPU (shared cores)",
    },
    {
      goal: GOALS_10K.size,
      figure: `${f1(kb)} KB`,
      met: kb < 200,
      reason: "the summary grew: groups or the problem-list preview",
    },
    {
      goal: GOALS_10K.ready,
      figure: `${f0(ready)} ms median, ${f0(Math.max(...r.readyMs))} ms max`,
      met: Number.isFinite(ready) ? ready < 1000 : null,
      reason: Number.isFinite(ready)
        ? "the page is drawn from its server-rendered HTML (no client fetch on the path): what is left is the server's render (session check, cached snapshot) and the browser's parse, both on cores shared with Prometheus, the simulator and other work"
        : "no page load finished",
    },
  ];
}

function report(rows: Row[], opts: FleetOptions, builtS: number, modes: Mode[]): Section[] {
  const api: Section = {
    title: `Fleet API and fleet page (${opts.apiRequests} sequential API requests, ${opts.pageLoads} cold page loads each)`,
    lines: [
      ...table(
        [
          "GPUs",
          "mode",
          "API p50 ms",
          "API p95 ms",
          "API body KiB",
          "API gzip KiB",
          "page ready median ms",
          "page ready max ms",
          "page JS transferred KiB",
          "setup s",
          "note",
        ],
        rows.map((r) => [
          r.gpus,
          r.mode,
          f1(r.api.p50),
          f1(r.api.p95),
          f0(r.api.bytes / 1024),
          f1(r.gzipBytes / 1024),
          f0(median(r.readyMs)),
          f0(Math.max(...r.readyMs)),
          f0(r.jsKiB),
          f0(r.setupS),
          r.note ?? "",
        ]),
      ),
      "",
      "Page ready: navigation start until the headline counts the fleet, the groups drawn add up to it and the problem list is drawn, in a fresh browser context " +
        "(empty cache), Debian's Chromium headless. Setup: starting Prometheus/the app and waiting " +
        `for every GPU to report.${builtS > 0 ? ` The app was built first (${f0(builtS)} s).` : ""}` +
        (modes.includes("prometheus") ? "" : " Prometheus was not found: embedded mode only."),
    ],
    goals: [],
  };
  const at = (gpus: number, mode: Mode) => rows.find((r) => r.gpus === gpus && r.mode === mode);
  const p10k = at(10000, "prometheus");
  if (p10k) api.goals.push(...goals10k(p10k));
  for (const mode of modes) {
    const r = at(1000, mode);
    if (r)
      api.goals.push({
        goal: `fleet page ready < 1.5 s at 1,000 GPUs (${mode})`,
        figure: `${f0(median(r.readyMs))} ms median, ${f0(Math.max(...r.readyMs))} ms max`,
        met: median(r.readyMs) < 1500,
      });
  }
  const loaded = rows.filter((r) => r.load);
  const loadSection: Section = {
    title: `Read API under load: ${opts.loadConnections} concurrent clients for ${opts.loadSeconds} s on /api/fleet (${opts.loadAt} GPUs)`,
    lines: table(
      ["mode", "req/s", "p50 ms", "p99 ms", "requests", "errors", "non-2xx"],
      loaded.map((r) => {
        const l = r.load;
        return l
          ? [r.mode, f1(l.reqPerSec), f0(l.p50), f0(l.p99), l.requests, l.errors, l.non2xx]
          : [r.mode];
      }),
    ),
    goals: loaded.map((r) => ({
      goal: `zero errors under load (${r.mode})`,
      figure: `${(r.load?.errors ?? 0) + (r.load?.non2xx ?? 0)} errors of ${r.load?.requests ?? 0}`,
      met: (r.load?.errors ?? 0) + (r.load?.non2xx ?? 0) === 0,
    })),
  };
  return loaded.length > 0 ? [api, loadSection] : [api];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      quick: { type: "boolean", default: false },
      sizes: { type: "string" },
      modes: { type: "string" },
    },
  });
  const opts = { ...(values.quick ? QUICK : FULL) };
  if (values.sizes) opts.sizes = values.sizes.split(",").map(Number);
  if (values.modes) opts.modes = values.modes.split(",") as Mode[];
  for (const s of await runFleetBench(opts))
    console.log([`## ${s.title}`, "", ...s.lines, ""].join("\n"));
  process.exit(0);
}
