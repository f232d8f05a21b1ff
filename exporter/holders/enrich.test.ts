// The optional name sources against local fakes: a unix-socket Docker API, a kubelet on
// 127.0.0.1, a scontrol script. Each answers "absent" when its source fails or stalls.

import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { calls, close, fakeCommand, fakeDir, fakeDocker, fakeKubelet } from "../test/fake-host.ts";
import { DockerNames, parseDockerContainers } from "./docker.ts";
import { KubeletNames, parsePodList } from "./kubelet.ts";
import { SlurmJobs, parseScontrolJob } from "./slurm.ts";

const ID = "b".repeat(64);
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await close(s);
});

/** A server that accepts requests and never answers. */
async function stalled(socketPath: string): Promise<Server> {
  const s = createServer(() => {});
  await new Promise<void>((resolve) => s.listen(socketPath, resolve));
  servers.push(s);
  return s;
}

describe("Docker names over the unix socket", () => {
  it("lists containers once and names them", async () => {
    const socket = join(fakeDir("docker-"), "docker.sock");
    servers.push(await fakeDocker(socket, [{ Id: ID, Names: ["/jupyter-alice"] }]));
    const d = new DockerNames({ socketPath: socket, timeoutMs: 2000 });
    expect(d.name(ID)).toBeUndefined(); // first call starts the load
    await d.settled();
    expect(d.name(ID)).toBe("jupyter-alice");
    expect(d.name("c".repeat(64))).toBeUndefined();
  });

  it("answers absent when the socket is missing or stalls, and says why", async () => {
    const dir = fakeDir("docker-");
    const errors: string[] = [];
    const missing = new DockerNames({
      socketPath: join(dir, "none.sock"),
      timeoutMs: 500,
      onError: (e) => errors.push(String(e)),
    });
    expect(missing.name(ID)).toBeUndefined();
    await missing.settled();
    expect(missing.name(ID)).toBeUndefined();
    expect(errors[0]).toMatch(/ENOENT/);

    const sock = join(dir, "stall.sock");
    await stalled(sock);
    const slow = new DockerNames({
      socketPath: sock,
      timeoutMs: 200,
      onError: (e) => errors.push(String(e)),
    });
    slow.name(ID);
    await slow.settled();
    expect(slow.name(ID)).toBeUndefined();
    expect(errors[1]).toMatch(/no answer within 200 ms/);
  });

  it("rejects an answer that is not a container list", () => {
    expect(() => parseDockerContainers({ message: "page not found" })).toThrow(/expected an array/);
    expect(parseDockerContainers([{ Id: ID, Names: ["/a", "/b"] }, { Id: 3 }])).toEqual(
      new Map([[ID, "a"]]),
    );
  });
});

describe("kubelet pod names", () => {
  const pods = [
    {
      metadata: { uid: "u-1", namespace: "ml", name: "trainer-0" },
      status: {
        containerStatuses: [{ name: "main", containerID: `cri-o://${ID}` }],
        initContainerStatuses: [{ name: "init", containerID: `containerd://${"d".repeat(64)}` }],
      },
    },
    { metadata: { uid: "u-2", namespace: "ml", name: "pending" }, status: {} },
  ];

  it("reads the pod list with the bearer token from the file", async () => {
    const dir = fakeDir("kubelet-");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(dir, "token"), "tok\n");
    const k = await fakeKubelet("tok", pods);
    servers.push(k.server);
    const names = new KubeletNames({ url: k.url, tokenFile: join(dir, "token"), timeoutMs: 2000 });
    names.pod("u-1");
    await names.settled();
    expect(names.pod("u-1")).toEqual({ namespace: "ml", name: "trainer-0" });
    expect(names.pod("u-2")).toEqual({ namespace: "ml", name: "pending" });
    expect(names.container(ID)).toBe("main");
    expect(names.container("d".repeat(64))).toBe("init");
    expect(k.requests[0]).toBe("GET /pods Bearer tok");
  });

  it("answers absent when the kubelet refuses the token", async () => {
    const k = await fakeKubelet("right", pods);
    servers.push(k.server);
    const errors: string[] = [];
    const names = new KubeletNames({
      url: k.url,
      timeoutMs: 2000,
      onError: (e) => errors.push(String(e)),
    });
    names.pod("u-1");
    await names.settled();
    expect(names.pod("u-1")).toBeUndefined();
    expect(errors[0]).toMatch(/HTTP 401/);
  });

  it("rejects a body that is not a PodList", () => {
    expect(() => parsePodList({ kind: "Status" })).toThrow(/PodList/);
  });
});

describe("Slurm jobs through scontrol", () => {
  it("parses user and account", () => {
    expect(
      parseScontrolJob("JobId=7 JobName=x UserId=erin(2002) GroupId=erin(2002) Account=bio QOS=n"),
    ).toEqual({ user: "erin", account: "bio" });
    expect(parseScontrolJob("slurm_load_jobs error: Invalid job id specified")).toBeNull();
  });

  it("asks once per job, and caches a job scontrol does not know as absent", async () => {
    const dir = fakeDir("scontrol-");
    const path = fakeCommand(
      dir,
      "scontrol",
      { "42": "JobId=42 UserId=erin(2002) Account=bio" },
      2,
      1,
    );
    const jobs = new SlurmJobs({ path, timeoutMs: 5000 });
    expect(jobs.job("42")).toBeUndefined();
    expect(jobs.job("43")).toBeUndefined();
    await jobs.settled();
    expect(jobs.job("42")).toEqual({ user: "erin", account: "bio" });
    expect(jobs.job("43")).toBeUndefined();
    await jobs.settled();
    expect(calls(path)).toEqual(["show job 42 -o", "show job 43 -o"]);
  });
});
