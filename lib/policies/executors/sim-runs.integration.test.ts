import "../../testing/no-egress.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../../exporter/log.ts";
import { startExporter, type RunningExporter } from "../../../exporter/server.ts";
import type { Db } from "../../db.ts";
import { makeTestDb } from "../../testing/test-db.ts";
import { simulatedExecutor } from "./simulated.ts";
import type { RunTarget } from "./types.ts";

// The simulated cloud ends a job's or a pod's run (maximum run time per job or pod): the app's
// simulated executor asks the simulator exporter to end it, and from the next collection the host
// no longer lists or attributes the run's processes, while its other runs stay.

let db: Db;
let exporter: RunningExporter;

beforeAll(async () => {
  db = makeTestDb().db;
  exporter = await startExporter({
    listenAddress: "127.0.0.1:0",
    simulate: true,
    simulateHosts: 8,
    logger: silentLogger,
  });
});
afterAll(async () => {
  await exporter.close();
  await db.$disconnect();
});

/** The values of one holder label on a host's process series. */
async function holdersOn(host: number, label: string): Promise<string[]> {
  const text = await (await fetch(`${exporter.url}/hosts/${host}/metrics`)).text();
  const re = new RegExp(`^gpu_process_memory_used_bytes\\{[^}]*\\b${label}="([^"]+)"`, "gm");
  return [...new Set([...text.matchAll(re)].map((m) => m[1] ?? ""))];
}

const target = (hostId: string, over: Partial<RunTarget>): RunTarget => ({
  policyId: "p1",
  episodeId: "e1",
  action: "cancel_job",
  hostId,
  hostname: "sim",
  provider: "aws",
  region: "us-east-1",
  zone: null,
  instanceId: null,
  runningSince: "2026-11-20T00:00:00.000Z",
  gpus: 1,
  job: null,
  pod: null,
  ...over,
});

async function demoHost(i: number) {
  return db.host.create({
    data: { hostname: `sim-${i}`, origin: "demo", target: `${exporter.url}/hosts/${i}/metrics` },
  });
}

/** The first simulated host whose processes carry `label`. */
async function hostWith(label: string): Promise<{ i: number; values: string[] }> {
  await exporter.tick();
  for (let i = 0; i < 8; i++) {
    const values = await holdersOn(i, label);
    if (values.length > 0) return { i, values };
  }
  throw new Error(`no simulated host has ${label}`);
}

describe("the simulated cloud ends runs", () => {
  it("cancels a Slurm job: its processes are no longer attributed", async () => {
    const { i, values } = await hostWith("slurm_job_id");
    const job = values[0] ?? "";
    const host = await demoHost(i);
    const r = await simulatedExecutor(db).endRun?.(
      target(host.id, { job: { id: job, user: "dave", account: null, cluster: null } }),
    );
    expect(r?.detail).toBe(`cancel_job: simulated job ${job} ended`);
    await exporter.tick();
    const after = await holdersOn(i, "slurm_job_id");
    expect(after).not.toContain(job);
    expect(after).toEqual(values.filter((v) => v !== job));
  });

  it("deletes a pod by its uid", async () => {
    const { i, values } = await hostWith("pod_uid");
    const uid = values[0] ?? "";
    const host = await demoHost(i);
    await simulatedExecutor(db).endRun?.(
      target(host.id, {
        action: "delete_pod",
        pod: { namespace: null, name: null, uid, user: "1000" },
      }),
    );
    await exporter.tick();
    expect(await holdersOn(i, "pod_uid")).not.toContain(uid);
  });

  it("refuses a malformed end request", async () => {
    const post = (path: string, body: string) =>
      fetch(`${exporter.url}${path}`, { method: "POST", body });
    expect((await post("/hosts/1/runs/end", "job 1")).status).toBe(400);
    expect((await post("/hosts/1/runs/end", '{"kind":"vm","ref":"1"}')).status).toBe(400);
    expect((await post("/hosts/99/runs/end", '{"kind":"job","ref":"1"}')).status).toBe(404);
  });
});
