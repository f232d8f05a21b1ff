import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseCgroupFile, parseCgroupLines, parseCgroupPath, type CgroupInfo } from "./cgroup.ts";

const DIR = new URL("../test/fixtures/cgroup/", import.meta.url);
const read = (name: string) => readFileSync(new URL(name, DIR), "utf8");

// One row per fixture file (provenance in exporter/test/fixtures/cgroup/README.md).
const CASES: [file: string, want: CgroupInfo][] = [
  [
    "docker-v1-cgroupfs-debian.cgroup",
    {
      containerRuntime: "docker",
      containerId: "4f797c539e6c745de61a93ca3ff892358ecbcaccd8414d5db545c38428142970",
    },
  ],
  [
    "docker-v1-systemd-centos.cgroup",
    {
      containerRuntime: "docker",
      containerId: "9ec39b91f3d70e1beff50a308f77067065ea6be0d91a3378375056cd4422cf3d",
    },
  ],
  [
    "docker-v1-nested-rancheros.cgroup",
    {
      containerRuntime: "docker",
      containerId: "ec08435e04266c5ba381fccbb829f626d11d8ddf5f8f547263c7a2d79ab4787a",
    },
  ],
  [
    "docker-v1-hybrid-ubuntu.cgroup",
    {
      containerRuntime: "docker",
      containerId: "051e2ee0bce99116029a13df4a9e943137f19f957f38ac02d6bad96f9b700f76",
    },
  ],
  [
    "docker-v2-constructed.cgroup",
    {
      containerRuntime: "docker",
      containerId: "a1e311027d69c40fe0520f086f7b85bcc62f31ac97b47f1b03d68b494f432b50",
    },
  ],
  [
    "podman-v2-constructed.cgroup",
    {
      containerRuntime: "podman",
      containerId: "55ea3863351726184e26ca7418f577d04c96dac0009e1f088f6c0c7a1dc2ed7c",
    },
  ],
  [
    "ecs-v1.cgroup",
    {
      containerRuntime: "docker",
      containerId: "7e9139716d9e5d762d22f9f877b87d1be8b1449ac912c025a984750c5dbff157",
    },
  ],
  [
    "k8s-v1-cgroupfs-docker.cgroup",
    {
      podUid: "74ba62da-1a3d-11e7-bb11-080027cb0e22",
      containerId: "cb1eadb7abe3a6545e9856411207073277838e1bdc003337c2f8685faeedc32c",
    },
  ],
  [
    "k8s-v1-cgroupfs-containerd-1.2.13.cgroup",
    {
      podUid: "a36d0c1d-0b26-4451-8d80-9c195e004afa",
      containerId: "5dd96d5394ca930a854a390ea46f7515a8bc930123eb3251ba20f2708a38fc61",
    },
  ],
  [
    "k8s-v1-kube-proxy-subcgroup.cgroup",
    {
      podUid: "f8a694f2-7c08-11e9-98da-000c29077430",
      containerId: "c04e0a88a1de067f25bece337d4dbb897396e0b623c2a65330850fc9823f1903",
    },
  ],
  [
    "k8s-v1-systemd-docker.cgroup",
    {
      containerRuntime: "docker",
      podUid: "045b1e35-7f13-11e7-ac42-0050568ffca0",
      containerId: "b5b6f2da8008be266864f896f93789762b2ce50792114a5c5f2cc3315af0bc70",
    },
  ],
  [
    "k8s-hybrid-systemd-containerd-bottlerocket.cgroup",
    {
      containerRuntime: "containerd",
      podUid: "dd1bf9d1-241d-47f5-8e25-12de83135812",
      containerId: "f45298cd514d1930c4fe3afc4412e59547f7e3148fddd22ca33cefce046eb830",
    },
  ],
  [
    "k8s-v1-containerd-1.4.4.cgroup",
    {
      containerRuntime: "containerd",
      podUid: "2105e389-7471-476e-a50f-6074cef29bbd",
      containerId: "d3d8ccf5cca91931c6285c1d7472c413dd5a7700fddc0aa9f89a9ac7008b003e",
      systemdUnit: "containerd.service",
    },
  ],
  [
    "k8s-v1-systemd-crio-1.19.cgroup",
    {
      containerRuntime: "cri-o",
      podUid: "8ca306fa-3c03-47fa-97dd-19979c345572",
      containerId: "d6d725b909f37c3e232aadfbafa950a58bfe7baa579ba8c47a12be88bb921607",
    },
  ],
  [
    "k8s-v1-systemd-crio-burstable.cgroup",
    {
      containerRuntime: "cri-o",
      podUid: "90d81341-92de-11e7-8cf2-507b9d4141fa",
      containerId: "2227daf62df6694645fee5df53c1f91271546a9560e8600a525690ae252b7f63",
    },
  ],
  ["slurm-v2-fox.cgroup", { slurmJobId: "1392969", slurmStep: "0" }],
  ["slurm-v1-interactive.cgroup", { slurmJobId: "280678", slurmStep: "interactive" }],
  ["slurm-v1-ex3.cgroup", { slurmJobId: "748468", slurmStep: "0" }],
  ["host-user-session-hybrid.cgroup", { systemdUnit: "session-2.scope" }],
  ["host-v1-root.cgroup", {}],
];

describe("parseCgroupFile on real /proc/<pid>/cgroup samples", () => {
  it("covers every fixture file", () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith(".cgroup"));
    expect(files.sort()).toEqual(CASES.map(([f]) => f).sort());
  });

  it.each(CASES)("%s", (file, want) => {
    expect(parseCgroupFile(read(file))).toEqual(want);
  });
});

describe("parseCgroupPath", () => {
  it("ignores the conmon monitor scopes of CRI-O and Podman", () => {
    const id = "a".repeat(64);
    expect(parseCgroupPath(`/machine.slice/libpod-conmon-${id}.scope`)).toEqual({
      systemdUnit: `libpod-conmon-${id}.scope`,
    });
  });

  it("reads the Slurm step on a host-prefixed slurmstepd scope", () => {
    expect(parseCgroupPath("/system.slice/node7_slurmstepd.scope/job_42/step_batch/user")).toEqual({
      slurmJobId: "42",
      slurmStep: "batch",
    });
  });

  it("names a plain service", () => {
    expect(parseCgroupPath("/system.slice/jupyterhub.service")).toEqual({
      systemdUnit: "jupyterhub.service",
    });
  });
});

describe("parseCgroupLines", () => {
  it("skips lines that are not hierarchy:controllers:path", () => {
    expect(parseCgroupLines("random garbage\n/job_hello/\n5:rdma:/\n0::/init.scope\n")).toEqual([
      { hierarchy: 5, controllers: ["rdma"], path: "/" },
      { hierarchy: 0, controllers: [], path: "/init.scope" },
    ]);
  });

  it("returns nothing for an empty file (another cgroup namespace hides the path)", () => {
    expect(parseCgroupFile("")).toEqual({});
    expect(parseCgroupFile("0::/\n")).toEqual({});
  });
});
