// startExporter(): the programmatic entry used by main.ts, tests and the app's demo launcher.
// Listen on port 0 ("127.0.0.1:0") to get a free port back.

import { createServer as createHttpServer, type Server } from "node:http";
import type { Host, Source } from "./collect.ts";
import { parseListenAddress, resolveConfig, type ExporterOptions } from "./config.ts";
import { startHostRuntime, type HostRuntime } from "./host/runtime.ts";
import { createHeapTrim } from "./heap-trim.ts";
import { createHandler } from "./http.ts";
import type { EndedRun } from "./sim/ended-runs.ts";
import { createLogger } from "./log.ts";
import { SimulatedSource } from "./collectors/simulated.ts";
import { buildSource } from "./sources.ts";
import type { WebConfig } from "./webconfig.ts";

export type { ExporterOptions } from "./config.ts";

export interface RunningExporter {
  port: number;
  /** base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  hosts: Host[];
  /** cloud metadata detection and spot notices (host 0); undefined with --host.detect=none */
  detection?: HostRuntime;
  /** run one collection and render its exposition now (tests); the schedule keeps running too */
  tick(): Promise<void>;
  /** the source (tests drive a simulated host's collection at a pinned time through it) */
  source: Source;
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

export async function startExporter(options: ExporterOptions = {}): Promise<RunningExporter> {
  const cfg = resolveConfig(options);
  const log = cfg.logger ?? createLogger({ minLevel: cfg.logLevel });
  // loaded only with --web.config.file: its YAML, schema and bcrypt code cost ~15 MiB resident
  const webMod = cfg.webConfigFile ? await import("./webconfig.ts") : undefined;
  const web: WebConfig =
    webMod && cfg.webConfigFile ? webMod.loadWebConfig(cfg.webConfigFile) : { headers: {} };
  const bind = parseListenAddress(cfg.listenAddress);
  const source: Source = buildSource(cfg, log);
  const host0 = source.hosts[0];
  // before listening: the first scrape already carries the detected labels
  const detection = host0 ? await startHostRuntime(cfg, host0, log) : undefined;
  let port = bind.port;
  const wildcard = bind.host === undefined || bind.host === "0.0.0.0" || bind.host === "::";
  const targetHost = wildcard
    ? "127.0.0.1"
    : bind.host?.includes(":")
      ? `[${bind.host}]`
      : bind.host;

  const handler = createHandler({
    hosts: source.hosts,
    telemetryPath: cfg.telemetryPath,
    auth: web.users && webMod ? webMod.createBasicAuth(web.users) : undefined,
    headers: web.headers,
    targetAddress: () => `${targetHost ?? "127.0.0.1"}:${port}`,
    tls: web.tls !== undefined,
    log,
    simulatedPower: cfg.simulate,
    ...(source instanceof SimulatedSource
      ? { endRun: (id: number, run: EndedRun) => source.ended.end(id, run) }
      : {}),
  });
  // node:https (TLS, OpenSSL) is loaded only when serving TLS: ~4 MiB resident otherwise
  const server: Server = web.tls
    ? (await import("node:https")).createServer(web.tls, handler)
    : createHttpServer(handler);

  // Each tick collects, then renders every host's exposition once (HostMetrics.publish); scrapes
  // serve that. A source still busy from the last tick does not hold the bodies back: they are
  // made from the state as it is, so a source that stopped answering still goes stale on time.
  const publish = async (): Promise<void> => {
    const now = Date.now();
    await Promise.all(source.hosts.map((h) => h.metrics.publish(h.state.view(now))));
  };
  const heapTrim = createHeapTrim();
  let ticking: Promise<void> | undefined;
  const tick = (): Promise<void> => {
    if (ticking) {
      void publish();
      return ticking;
    }
    ticking = (async () => {
      try {
        await source.tick(Date.now());
      } catch (err) {
        log.log("error", "collection tick failed", { err: String(err) });
      }
      await publish();
      heapTrim.afterTick();
    })().finally(() => (ticking = undefined));
    return ticking;
  };

  try {
    await listen(server, bind.port, bind.host);
  } catch (err) {
    await detection?.close();
    throw err;
  }
  const address = server.address();
  if (address && typeof address === "object") port = address.port;
  source.start();
  await tick(); // the simulator has data before the first scrape; nvidia-smi streams in
  const timer = setInterval(() => void tick(), cfg.intervalMs);
  const scheme = web.tls ? "https" : "http";
  log.log("info", "listening", { address: `${scheme}://${targetHost ?? "127.0.0.1"}:${port}` });

  let closing: Promise<void> | undefined;
  return {
    port,
    url: `${scheme}://${targetHost ?? "127.0.0.1"}:${port}`,
    hosts: source.hosts,
    detection,
    tick,
    source,
    close() {
      closing ??= (async () => {
        clearInterval(timer);
        await detection?.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await ticking;
        await source.close();
      })();
      return closing;
    },
  };
}
