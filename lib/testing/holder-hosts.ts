import { createServer, type Server } from "node:http";

// Simulated GPU hosts for the idle-alert routing tests (issue 24): each serves an exporter
// exposition at /hosts/<i>/metrics, with its GPUs' utilization and memory and the processes on
// them labelled with their user, as the exporter's holder attribution labels them. A GPU is busy or
// idle as the test says; the same server is scraped by the embedded ingest or by a real Prometheus.

export interface SimGpu {
  index: number;
  uuid: string;
  /** 0–1 */
  util: number;
  /** the user whose process holds it; null: empty */
  user: string | null;
}

export interface SimHost {
  id: number;
  hostname: string;
  owner: string | null;
  team: string;
  gpus: SimGpu[];
}

const GIB = 1024 ** 3;

export function exposition(h: SimHost): string {
  const q = (v: string) => `"${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
  const labels = (o: Record<string, string>) =>
    `{${Object.entries(o)
      .map(([k, v]) => `${k}=${q(v)}`)
      .join(",")}}`;
  const info: Record<string, string> = {
    hostname: h.hostname,
    provider: "aws",
    instance_type: "p4d.24xlarge",
    region: "us-east-1",
    pricing_model: "on_demand",
    team: h.team,
    project: "llm",
  };
  if (h.owner) info.owner = h.owner;
  const out = [
    "# TYPE gpu_host_info gauge",
    `gpu_host_info${labels(info)} 1`,
    "# TYPE gpu_info gauge",
  ];
  for (const g of h.gpus) {
    const id = { gpu: String(g.index), uuid: g.uuid };
    out.push(
      `gpu_info${labels({ ...id, name: "NVIDIA A100-SXM4-40GB", pci_bus_id: `00000000:${10 + g.index}:00.0`, driver_version: "550.54.15", mig_mode: "Disabled" })} 1`,
      `gpu_utilization_ratio${labels(id)} ${g.util}`,
      `gpu_memory_total_bytes${labels(id)} ${40 * GIB}`,
      `gpu_memory_used_bytes${labels(id)} ${g.user ? 8 * GIB : 0}`,
      `gpu_processes${labels(id)} ${g.user ? 1 : 0}`,
    );
    if (g.user)
      out.push(
        `gpu_process_memory_used_bytes${labels({ ...id, pid: String(4000 + g.index), process_name: "python", user: g.user })} ${8 * GIB}`,
      );
  }
  return `${out.join("\n")}\n`;
}

export interface SimHostServer {
  url: string;
  /** the file_sd / http_sd targets, as the simulator's /targets.json lists them */
  targets: { targets: string[]; labels: Record<string, string> }[];
  metricsUrl(id: number): string;
  close(): Promise<void>;
}

export async function serveHosts(hosts: readonly SimHost[]): Promise<SimHostServer> {
  const server: Server = createServer((req, res) => {
    const m = /^\/hosts\/(\d+)\/metrics$/.exec(req.url ?? "");
    const h = m ? hosts.find((x) => x.id === Number(m[1])) : undefined;
    if (!h) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/plain; version=0.0.4" });
    res.end(exposition(h));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  if (typeof addr !== "object" || !addr) throw new Error("no port");
  const base = `127.0.0.1:${addr.port}`;
  return {
    url: `http://${base}`,
    targets: hosts.map((h) => ({
      targets: [base],
      labels: { __metrics_path__: `/hosts/${h.id}/metrics` },
    })),
    metricsUrl: (id) => `http://${base}/hosts/${id}/metrics`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
