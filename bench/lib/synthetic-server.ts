// The fleet API over a synthetic fleet (`node --conditions=react-server --import tsx
// bench/lib/synthetic-server.ts <gpus>`): the app's own aggregation (buildGrid, summarizeFleet,
// buildFleetIndex, buildInstanceRows via shapeFleetView), its serialised and once-gzipped summary
// body, its query validation and paging, served on 127.0.0.1 the way scripts/serve.ts sends them.
// The snapshot is rebuilt in this process every collection interval, as the app's cache does, so
// requests pay for rebuilds landing between them. Arguments: GPUs, port, rebuild interval in ms;
// GET /stats answers the rebuild times so far.
import { createServer, type ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { BadRequestError, parseQuery } from "../../app/api/_lib/handle.ts";
import { shapeFleetView, type FleetView } from "../../lib/fleet/fleet-cache.ts";
import { fleetSummaryBody } from "../../lib/fleet/fleet-json.ts";
import { buildGrid } from "../../lib/fleet/grid.ts";
import { toHealthDto } from "../../lib/fleet/health.ts";
import { fleetGpuPage } from "../../lib/fleet/overview.ts";
import { applyTableQuery } from "../../lib/fleet/table-state.ts";
import { yieldToLoop } from "../../lib/core/yield-to-loop.ts";
import { fleetGpuQuerySchema } from "../../lib/zod/schemas/fleet.ts";
import { tableQuerySchema } from "../../lib/zod/schemas/instance-query.ts";
import { syntheticFleet } from "./synthetic-fleet.ts";

const gpus = Number(process.argv[2] ?? "100000");
const port = Number(process.argv[3] ?? "0");
const intervalMs = Number(process.argv[4] ?? "15000");
const fleet = syntheticFleet(gpus);
const rebuilds: number[] = [];

async function build(): Promise<FleetView> {
  const t0 = performance.now();
  const current = await fleet.source.currentGpus();
  await yieldToLoop();
  const now = new Date();
  const health = toHealthDto(await fleet.source.health(), "prometheus", now.getTime(), 40_000);
  const snapshot = {
    now,
    hosts: fleet.hosts,
    current,
    grid: buildGrid(current),
    prices: fleet.prices,
    health,
    sourceError: null,
  };
  await yieldToLoop();
  const month = {
    month: now.toISOString().slice(0, 7),
    spendMicros: "0",
    forecastMicros: null,
    budgetMicros: null,
  };
  const view = await shapeFleetView(snapshot, month);
  await yieldToLoop();
  // serialise and gzip as the first request after a rebuild would
  await fleetSummaryBody(view, now.toISOString(), health, true).gzipped();
  rebuilds.push(performance.now() - t0);
  return view;
}

let view = await build();
const timer = setInterval(() => {
  build().then((v) => (view = v), console.error);
}, intervalMs);
timer.unref();

function send(res: ServerResponse, status: number, body: string | Buffer, gz: boolean): void {
  res.writeHead(status, {
    "content-type": "application/json",
    "cache-control": "no-store",
    ...(gz ? { "content-encoding": "gzip" } : {}),
  });
  res.end(body);
}

const server = createServer((req, res) => {
  const url = `http://127.0.0.1${req.url ?? "/"}`;
  const gz = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
  const path = new URL(url).pathname;
  void (async () => {
    try {
      if (path === "/api/fleet") {
        const body = fleetSummaryBody(
          view,
          view.snapshot.now.toISOString(),
          view.snapshot.health,
          true,
        );
        return send(res, 200, gz ? await body.gzipped() : body.text, gz);
      }
      let payload: unknown;
      if (path === "/api/fleet/gpus") {
        const q = parseQuery(fleetGpuQuerySchema, url);
        payload = { generatedAt: view.snapshot.now.toISOString(), ...fleetGpuPage(view.index, q) };
      } else if (path === "/api/instances") {
        const q = parseQuery(tableQuerySchema, url);
        const rows = applyTableQuery(view.rows, q);
        payload = {
          generatedAt: view.snapshot.now.toISOString(),
          health: view.snapshot.health,
          total: view.rows.length,
          rows,
        };
      } else if (path === "/stats") {
        payload = { rebuildMs: rebuilds };
      } else
        return send(res, 404, JSON.stringify({ error: "not found", code: "not_found" }), false);
      const text = JSON.stringify(payload);
      send(res, 200, gz ? gzipSync(text) : text, gz);
    } catch (e) {
      const bad = e instanceof BadRequestError;
      send(
        res,
        bad ? 400 : 500,
        JSON.stringify({ error: (e as Error).message, code: bad ? "bad_request" : "internal" }),
        false,
      );
    }
  })();
});
server.listen(port, "127.0.0.1");
