// HTTP routes: /metrics (host 0), /hosts/<i>/metrics, /targets.json (Prometheus http_sd),
// /healthz (never behind auth, for load balancers and probes) and a small landing page.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Host } from "./collect.ts";
import { CONTENT_TYPE } from "./exposition.ts";
import type { Logger } from "./log.ts";
import { parseEndedRun, type EndedRun } from "./sim/ended-runs.ts";
import { acceptsGzip, negotiateFormat } from "./negotiate.ts";

export interface HandlerOptions {
  hosts: Host[];
  telemetryPath: string;
  /** undefined: no authentication */
  auth?: (header: string | undefined) => Promise<boolean>;
  headers: Record<string, string>;
  /** "127.0.0.1:9445" as Prometheus should reach this process */
  targetAddress: () => string;
  tls: boolean;
  log: Logger;
  /**
   * --simulate only: the simulated cloud's power switch, `POST /hosts/<i>/power` with the body
   * `off` or `on`. An "off" host answers its metrics with 503, as a stopped instance's exporter
   * is unreachable; the demo's idle-release policy stops hosts this way (lib/policies). And its
   * resize: `POST /hosts/<i>/instance-type` with the new type as the body, only while the host is
   * off (as the clouds change a stopped instance's type); gpu_host_info's instance_type changes,
   * so the app prices the host at the new type (its simulated GPUs stay as they are).
   */
  simulatedPower?: boolean;
  /**
   * --simulate only: the simulated cloud ends a job's or pod's run, `POST /hosts/<i>/runs/end`
   * with `{"kind":"job"|"pod","ref":"<job id or pod uid>"}` (exporter/sim/ended-runs.ts).
   */
  endRun?: (hostId: number, run: EndedRun) => void;
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  type = "text/plain; charset=utf-8",
) {
  res.writeHead(status, { "content-type": type });
  res.end(body);
}

export function createHandler(opts: HandlerOptions) {
  const { hosts, telemetryPath, auth, log } = opts;
  const poweredOff = new Set<number>();

  const targets = () =>
    hosts.map((h) => ({
      targets: [opts.targetAddress()],
      labels: {
        __metrics_path__: `/hosts/${h.id}/metrics`,
        // one address serves many hosts: give each its own instance so series stay apart
        instance: `${opts.targetAddress()}/hosts/${h.id}/metrics`,
        ...(opts.tls ? { __scheme__: "https" } : {}),
        // a hidden label: Prometheus drops it after relabelling, so series gain no
        // exported_hostname; the app's file_sd reader takes it as the host's name until scraped
        __meta_gpufleet_hostname: h.info.hostname ?? "",
      },
    }));

  // the body was rendered at the last collection tick (HostMetrics.publish): nothing to render
  const metrics = async (req: IncomingMessage, res: ServerResponse, host: Host) => {
    const format = negotiateFormat(req.headers.accept);
    const out = await host.metrics.exposition(format, acceptsGzip(req.headers["accept-encoding"]));
    res.writeHead(200, {
      "content-type": CONTENT_TYPE[format],
      "content-length": out.body.length,
      vary: "Accept, Accept-Encoding",
      ...(out.gzipped ? { "content-encoding": "gzip" } : {}),
    });
    res.end(out.body);
  };

  const power = async (req: IncomingMessage, res: ServerResponse, id: number) => {
    const host = hosts[id];
    if (!host) return send(res, 404, "no such host\n");
    let body = "";
    for await (const chunk of req) {
      body += String(chunk);
      if (body.length > 16) return send(res, 413, "the body is `on` or `off`\n");
    }
    const want = body.trim();
    if (want !== "on" && want !== "off") return send(res, 400, "the body is `on` or `off`\n");
    if (want === "off") poweredOff.add(host.id);
    else poweredOff.delete(host.id);
    log.log("info", "simulated power", { host: host.id, power: want });
    const answer = JSON.stringify({ host: host.id, power: want }) + "\n";
    return send(res, 200, answer, "application/json");
  };

  const resize = async (req: IncomingMessage, res: ServerResponse, id: number) => {
    const host = hosts[id];
    if (!host) return send(res, 404, "no such host\n");
    let body = "";
    for await (const chunk of req) {
      body += String(chunk);
      if (body.length > 64) return send(res, 413, "the body is an instance type\n");
    }
    const type = body.trim();
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(type))
      return send(res, 400, "the body is an instance type\n");
    if (!poweredOff.has(host.id)) return send(res, 409, "stop the instance first\n");
    const from = host.info.instance_type;
    host.info.instance_type = type;
    await host.metrics.setHostInfo({ ...host.info });
    log.log("info", "simulated resize", { host: host.id, from, to: type });
    const answer = JSON.stringify({ host: host.id, instanceType: type }) + "\n";
    return send(res, 200, answer, "application/json");
  };

  const endRun = async (req: IncomingMessage, res: ServerResponse, id: number) => {
    const host = hosts[id];
    if (!host || !opts.endRun) return send(res, 404, "no such host\n");
    let body = "";
    for await (const chunk of req) {
      body += String(chunk);
      if (body.length > 1024) return send(res, 413, "the body is too large\n");
    }
    const run = parseEndedRun(body);
    if (typeof run === "string") return send(res, 400, `${run}\n`);
    opts.endRun(host.id, run);
    log.log("info", "simulated run ended", { host: host.id, kind: run.kind, ref: run.ref });
    return send(res, 200, JSON.stringify({ host: host.id, ended: run }) + "\n", "application/json");
  };

  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    for (const [k, v] of Object.entries(opts.headers)) res.setHeader(k, v);
    const powerPath = /^\/hosts\/(\d+)\/(power|instance-type)$/.exec(path);
    const powerCall = opts.simulatedPower === true && powerPath !== null && req.method === "POST";
    const endPath = /^\/hosts\/(\d+)\/runs\/end$/.exec(path);
    const endCall = opts.endRun !== undefined && endPath !== null && req.method === "POST";
    if (req.method !== "GET" && req.method !== "HEAD" && !powerCall && !endCall) {
      res.setHeader("allow", "GET, HEAD");
      return send(res, 405, "method not allowed\n");
    }
    if (path === "/healthz") return send(res, 200, "OK\n");
    if (auth && !(await auth(req.headers.authorization))) {
      res.setHeader("www-authenticate", 'Basic realm="gpu-exporter", charset="UTF-8"');
      return send(res, 401, "unauthorized\n");
    }
    if (powerCall && powerPath?.[2] === "instance-type")
      return resize(req, res, Number(powerPath[1]));
    if (powerCall) return power(req, res, Number(powerPath?.[1]));
    if (endCall) return endRun(req, res, Number(endPath?.[1]));
    const hostPath = /^\/hosts\/(\d+)\/metrics$/.exec(path);
    if (path === telemetryPath || hostPath) {
      const host = hosts[hostPath ? Number(hostPath[1]) : 0];
      if (!host) return send(res, 404, "no such host\n");
      if (poweredOff.has(host.id)) return send(res, 503, "instance stopped (simulated cloud)\n");
      return metrics(req, res, host);
    }
    if (path === "/targets.json") {
      return send(res, 200, JSON.stringify(targets()) + "\n", "application/json");
    }
    if (path === "/") {
      const links = [
        `<a href="${telemetryPath}">Metrics</a>`,
        '<a href="/targets.json">Targets</a>',
      ];
      return send(
        res,
        200,
        `<!doctype html><title>GPU exporter</title><h1>GPU exporter</h1><p>${links.join(" · ")}</p>\n`,
        "text/html; charset=utf-8",
      );
    }
    return send(res, 404, "not found\n");
  };

  return (req: IncomingMessage, res: ServerResponse): void => {
    route(req, res).catch((err: unknown) => {
      log.limited(`http:${String(err)}`, "error", "request failed", { err: String(err) });
      if (!res.headersSent) send(res, 500, "internal error\n");
      else res.destroy();
    });
  };
}
