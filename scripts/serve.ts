// The production server: `node --import tsx scripts/serve.ts [-H host] [-p port]`, what
// `next start` does, with requests started fairly (lib/server/fair-start.ts), so a burst of new
// clients is not left waiting to be accepted while busy ones keep the event loop full, and with
// X-Forwarded-For believed only from GPUFLEET_TRUSTED_PROXIES (lib/server/forwarded.ts).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { parseArgs } from "node:util";
import { env } from "../lib/env.ts";
import { fairly } from "../lib/server/fair-start.ts";
import { parseTrustedProxies } from "../lib/config/trusted-proxies.ts";
import { applyForwarded } from "../lib/server/forwarded.ts";
import { precompressedSupport } from "../lib/server/precompressed.ts";

const { values } = parseArgs({
  options: {
    hostname: { type: "string", short: "H", default: "0.0.0.0" },
    port: { type: "string", short: "p", default: String(env.PORT) },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`gpufleet serve: -p ${values.port} is not a port number`);
  process.exit(2);
}
const hostname = values.hostname;

// before Next loads: React and Next pick their production builds from it
Object.assign(process.env, { NODE_ENV: "production", PORT: String(port) });
const { default: next } = await import("next");

const server = createServer();
const app = next({ dev: false, dir: process.cwd(), hostname, port, httpServer: server });
await app.prepare();
const nextHandler = app.getRequestHandler();
const proxies = parseTrustedProxies(env.GPUFLEET_TRUSTED_PROXIES);
const handle = (req: IncomingMessage, res: ServerResponse) => {
  // the client's address as Next, better-auth's per-IP limits and the audit log will see it
  applyForwarded(req, proxies);
  precompressedSupport(req, res);
  return nextHandler(req, res);
};
server.on(
  "request",
  fairly(handle, (e) => console.error("gpufleet serve: request failed", e)),
);
server.on("error", (e) => {
  console.error(`gpufleet serve: ${e.message}`);
  process.exit(1);
});
server.listen(port, hostname, () => {
  console.log(`gpufleet serve: listening on http://${hostname}:${port}`);
});

// Graceful stop: no new connections, the collector (started in this process by
// instrumentation.ts) stops ticking, waits up to GPUFLEET_STOP_TIMEOUT_MS for notification sends in
// flight and releases its lease so a replica takes over on its next tick; then Next closes.
type StopCollector = () => Promise<{ drained: boolean }>;
async function stopCollector(): Promise<void> {
  const stop = (globalThis as { gpufleetStopCollector?: StopCollector }).gpufleetStopCollector;
  if (!stop) return;
  try {
    const { drained } = await stop();
    if (!drained)
      console.error(
        `gpufleet serve: sends still in flight after ${env.GPUFLEET_STOP_TIMEOUT_MS} ms; ` +
          "they are sent again, with the same Idempotency-Key, once their claim expires",
      );
  } catch (e) {
    console.error(`gpufleet serve: stopping the collector failed: ${(e as Error).message}`);
  }
}

function shutdown(code: number) {
  server.close();
  server.closeIdleConnections();
  setTimeout(() => process.exit(code), env.GPUFLEET_STOP_TIMEOUT_MS + 5000).unref();
  void stopCollector()
    .then(() => {
      server.closeAllConnections();
      return app.close();
    })
    .finally(() => process.exit(code));
}
process.once("SIGTERM", () => shutdown(143));
process.once("SIGINT", () => shutdown(130));
