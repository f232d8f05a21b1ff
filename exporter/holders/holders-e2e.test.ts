// End to end: a fake nvidia-smi reports five processes; the exporter reads their owners and
// cgroups from a fake /proc, names the users through a fake getent, and adds names from a fake
// Docker socket, a fake kubelet and a fake scontrol. One process has no /proc entry at all.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOLDER_LABELS } from "../contract.ts";
import { silentLogger } from "../log.ts";
import { startExporter, type RunningExporter } from "../server.ts";
import {
  calls,
  close,
  fakeCommand,
  fakeDir,
  fakeDocker,
  fakeKubelet,
  writeFakeProc,
} from "../test/fake-host.ts";
import { UUID0, UUID1, twoH100s } from "../test/fake-gpus.ts";
import { FAKE_NVSMI, FakeNvidiaSmi, waitFor } from "../test/helpers.ts";

const FIX = new URL("../test/fixtures/cgroup/", import.meta.url);
const cgroup = (name: string) => readFileSync(new URL(name, FIX), "utf8");

const DOCKER_V1 = "9ec39b91f3d70e1beff50a308f77067065ea6be0d91a3378375056cd4422cf3d";
const DOCKER_V2 = "a1e311027d69c40fe0520f086f7b85bcc62f31ac97b47f1b03d68b494f432b50";
const POD_CTR = "f45298cd514d1930c4fe3afc4412e59547f7e3148fddd22ca33cefce046eb830";
const POD_UID = "dd1bf9d1-241d-47f5-8e25-12de83135812";

const root = fakeDir("holders-e2e-");
const proc = join(root, "proc");
const bin = join(root, "bin");
let docker: Server | undefined;
let kubelet: Awaited<ReturnType<typeof fakeKubelet>> | undefined;
let exporter: RunningExporter | undefined;
let fake: FakeNvidiaSmi | undefined;
const savedPath = process.env.PATH;

function app(gpu: string, pid: number, mib: number) {
  return { gpu_uuid: gpu, pid: String(pid), used_gpu_memory: String(mib), process_name: "python3" };
}

/** The process series' labels, by pid. */
function series(text: string): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const line of text.split("\n")) {
    if (!line.startsWith("gpu_process_memory_used_bytes{")) continue;
    const labels: Record<string, string> = {};
    for (const m of line.matchAll(/(\w+)="([^"]*)"/g)) labels[m[1] ?? ""] = m[2] ?? "";
    out.set(labels.pid ?? "", labels);
  }
  return out;
}

beforeAll(async () => {
  writeFakeProc(proc, { pid: 5001, uid: 1001, cgroup: cgroup("docker-v1-systemd-centos.cgroup") });
  writeFakeProc(proc, { pid: 5002, uid: 1002, cgroup: cgroup("docker-v2-constructed.cgroup") });
  writeFakeProc(proc, {
    pid: 5003,
    uid: 1000,
    cgroup: cgroup("k8s-hybrid-systemd-containerd-bottlerocket.cgroup"),
  });
  writeFakeProc(proc, { pid: 5004, uid: 2001, cgroup: cgroup("slurm-v2-fox.cgroup") });
  // 5005: no /proc entry (another PID namespace)
  const { mkdirSync } = await import("node:fs");
  mkdirSync(bin, { recursive: true });
  fakeCommand(
    bin,
    "getent",
    {
      "1001": "alice:x:1001:1001:Alice:/home/alice:/bin/bash",
      "1002": "bob:x:1002:1002:Bob:/home/bob:/bin/bash",
      "2001": "dave:x:2001:2001::/home/dave:/bin/bash",
    },
    1,
    2,
  );
  const scontrol = fakeCommand(
    bin,
    "scontrol",
    {
      "1392969": "JobId=1392969 JobName=train UserId=dave(2001) GroupId=dave(2001) Account=physics",
    },
    2,
    1,
  );
  process.env.PATH = `${bin}:${savedPath ?? ""}`;
  const socket = join(root, "docker.sock");
  docker = await fakeDocker(socket, [
    { Id: DOCKER_V1, Names: ["/alice-notebook"] },
    { Id: DOCKER_V2, Names: ["/bob-vllm"] },
  ]);
  const tokenFile = join(root, "token");
  const { writeFileSync } = await import("node:fs");
  writeFileSync(tokenFile, "sa-token\n");
  kubelet = await fakeKubelet("sa-token", [
    {
      metadata: { uid: POD_UID, namespace: "ml", name: "trainer-0" },
      status: { containerStatuses: [{ name: "pytorch", containerID: `containerd://${POD_CTR}` }] },
    },
  ]);
  fake = new FakeNvidiaSmi({
    ...twoH100s(),
    processes: [
      app(UUID0, 5001, 1000),
      app(UUID0, 5002, 2000),
      app(UUID1, 5003, 3000),
      app(UUID1, 5004, 4000),
      app(UUID1, 5005, 5000),
    ],
  });
  exporter = await startExporter({
    listenAddress: "127.0.0.1:0",
    nvidiaSmiPath: FAKE_NVSMI,
    intervalMs: 150,
    logger: silentLogger,
    tuning: { startupGraceMs: 2000, commandTimeoutMs: 5000, migIntervalMs: 60_000 },
    holders: {
      procfs: proc,
      dockerSocket: socket,
      kubeletUrl: kubelet.url,
      kubeletTokenFile: tokenFile,
      scontrolPath: scontrol,
      timeoutMs: 2000,
    },
  });
});

afterAll(async () => {
  await exporter?.close();
  await close(docker);
  await close(kubelet?.server);
  process.env.PATH = savedPath;
});

async function scrape(): Promise<string> {
  const res = await fetch(`${exporter?.url ?? ""}/metrics`);
  return res.text();
}

describe("attribution through the exporter (fake /proc, getent, Docker, kubelet, scontrol)", () => {
  it("labels each process with its holder, and keeps an unreadable one as unknown", async () => {
    // names arrive in the background: wait until every enrichment has landed
    const got = await waitFor(async () => {
      const s = series(await scrape());
      const done =
        s.get("5001")?.container_name &&
        s.get("5001")?.user === "alice" &&
        s.get("5002")?.user === "bob" &&
        s.get("5004")?.user === "dave" &&
        s.get("5003")?.pod_name &&
        s.get("5004")?.slurm_account;
      return done ? s : undefined;
    }, "enriched holders");

    const base = { process_name: "python3" };
    expect(got.get("5001")).toEqual({
      ...base,
      gpu: "0",
      uuid: UUID0,
      pid: "5001",
      user: "alice",
      container_id: DOCKER_V1,
      container_name: "alice-notebook",
    });
    expect(got.get("5002")).toMatchObject({
      user: "bob",
      container_id: DOCKER_V2,
      container_name: "bob-vllm",
    });
    // uid 1000 is not in the host's user database: the numeric uid names it
    expect(got.get("5003")).toEqual({
      ...base,
      gpu: "1",
      uuid: UUID1,
      pid: "5003",
      user: "1000",
      container_id: POD_CTR,
      pod_uid: POD_UID,
      pod_namespace: "ml",
      pod_name: "trainer-0",
      pod_container: "pytorch",
    });
    expect(got.get("5004")).toMatchObject({
      user: "dave",
      slurm_job_id: "1392969",
      slurm_user: "dave",
      slurm_account: "physics",
    });
    expect(got.get("5005")).toEqual({
      ...base,
      gpu: "1",
      uuid: UUID1,
      pid: "5005",
      user: "unknown",
    });
    for (const labels of got.values()) {
      for (const k of Object.keys(labels)) {
        expect(["gpu", "uuid", "pid", "process_name", ...HOLDER_LABELS]).toContain(k);
      }
    }
    expect(kubelet?.requests.every((r) => r.startsWith("GET /pods Bearer sa-token"))).toBe(true);
  });

  it("asks getent and scontrol once per uid and job, not per collection", async () => {
    // let a few more collections run (150 ms apart); fewer on a slow machine only weakens this
    await new Promise((r) => setTimeout(r, 600));
    const getent = calls(join(bin, "getent"));
    expect(getent.sort()).toEqual(["passwd 1000", "passwd 1001", "passwd 1002", "passwd 2001"]);
    expect(calls(join(bin, "scontrol"))).toEqual(["show job 1392969 -o"]);
  });

  it("drops a finished process's series", async () => {
    fake?.update({
      processes: [app(UUID0, 5001, 1000), app(UUID1, 5003, 3000), app(UUID1, 5004, 4000)],
    });
    const s = await waitFor(async () => {
      const got = series(await scrape());
      return got.has("5002") || got.has("5005") ? undefined : got;
    }, "finished processes gone");
    expect([...s.keys()].sort()).toEqual(["5001", "5003", "5004"]);
  });
});
