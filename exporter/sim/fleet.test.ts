import { describe, expect, it } from "vitest";
import { INSTANCE_TYPES } from "./catalogue.ts";
import { buildFleet } from "./fleet.ts";
import { gpuModel } from "./gpu-models.ts";
import type { SimFleet, WorkloadProfile } from "./types.ts";

const demo = buildFleet({ seed: 42, hosts: 24 });
const gpus = (f: SimFleet) => f.hosts.flatMap((h) => h.gpus.map((g) => ({ h, g })));

describe("buildFleet: the demo fleet (seed 42, 24 hosts)", () => {
  it("has at least 24 hosts, 100 GPUs and 3 providers", () => {
    expect(demo.hosts).toHaveLength(24);
    expect(gpus(demo).length).toBeGreaterThanOrEqual(100);
    expect(new Set(demo.hosts.map((h) => h.provider)).size).toBeGreaterThanOrEqual(3);
  });

  it("mixes on-demand, spot and reserved hosts; spot only on aws/gcp/azure", () => {
    const models = new Set(demo.hosts.map((h) => h.pricingModel));
    expect([...models].sort()).toEqual(["on_demand", "reserved", "spot"]);
    for (const h of demo.hosts.filter((x) => x.pricingModel === "spot")) {
      expect(["aws", "gcp", "azure"]).toContain(h.provider);
    }
  });

  it("has at least 4 teams and 4 projects, each host one of each, with an owner", () => {
    expect(new Set(demo.hosts.map((h) => h.team)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(demo.hosts.map((h) => h.project)).size).toBeGreaterThanOrEqual(4);
    for (const h of demo.hosts) {
      expect(h.team).not.toBe("");
      expect(h.labels.owner).toMatch(/^[a-z]+@example\.com$/);
    }
  });

  it("shows every workload profile, MIG on an A100-80GB or H100", () => {
    const seen = new Set<WorkloadProfile>(gpus(demo).map(({ g }) => g.profile));
    expect([...seen].sort()).toEqual(
      ["empty_idle", "faulty", "held_idle", "inference", "mig", "stuck_loop", "training"].sort(),
    );
    for (const { g } of gpus(demo).filter(({ g }) => g.profile === "mig")) {
      expect(["NVIDIA A100-SXM4-80GB", "NVIDIA H100 80GB HBM3"]).toContain(g.name);
      const mig = g.mig ?? [];
      expect(mig.length).toBeGreaterThan(0);
      expect(mig.reduce((s, m) => s + m.memoryTotalMiB, 0)).toBeLessThanOrEqual(g.memoryTotalMiB);
      for (const m of mig) expect(m.profile).toMatch(/^[1-7]g\.\d+gb$/);
    }
  });

  it("mixes profiles inside an 8-GPU training box", () => {
    const mixed = demo.hosts.find(
      (h) => h.gpus.length === 8 && new Set(h.gpus.map((g) => g.profile)).size > 1,
    );
    expect(mixed).toBeDefined();
  });

  it("has one unpriced on-prem dgx-a100 and interruptible on-demand hosts", () => {
    const onprem = demo.hosts.filter((h) => h.provider === "onprem");
    expect(onprem.map((h) => [h.instanceType, h.region])).toEqual([["dgx-a100", "dc1"]]);
    const interruptible = demo.hosts.filter((h) => h.labels.interruptible === "true");
    expect(interruptible.length).toBeGreaterThan(0);
    for (const h of interruptible) expect(h.pricingModel).toBe("on_demand");
  });

  it("names hosts, GPUs and buses like the real thing", () => {
    expect(demo.hosts[0]?.hostname).toBe("gpu-aws-use1-001");
    for (const { h, g } of gpus(demo)) {
      expect(h.hostname).toMatch(/^gpu-[a-z]+-[a-z0-9]+-\d{3}$/);
      expect(g.uuid).toMatch(/^GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(g.pciBusId).toMatch(/^[0-9A-F]{8}:[0-9A-F]{2}:[0-9A-F]{2}\.0$/);
      expect(g.memoryTotalMiB).toBe(gpuModel(g.name).memory.totalMiB);
      expect(h.driverVersion).toMatch(/^5\d\d\.\d+\.\d+$/);
    }
    const uuids = gpus(demo).map(({ g }) => g.uuid);
    expect(new Set(uuids).size).toBe(uuids.length);
    for (const h of demo.hosts) {
      expect(new Set(h.gpus.map((g) => g.pciBusId)).size).toBe(h.gpus.length);
    }
  });

  it("uses only catalogue instance types, with their GPU counts and models", () => {
    for (const h of demo.hosts) {
      const t = INSTANCE_TYPES.find((x) => x.instanceType === h.instanceType);
      expect(t?.provider).toBe(h.provider);
      expect(h.gpus).toHaveLength(t?.gpus ?? -1);
      expect(t?.regions).toContain(h.region);
      for (const g of h.gpus) expect(g.name).toBe(t?.gpuName);
    }
  });
});

describe("buildFleet: determinism and scale", () => {
  it("gives the same fleet for the same seed, different ids for another seed", () => {
    expect(buildFleet({ seed: 42, hosts: 40 })).toEqual(buildFleet({ seed: 42, hosts: 40 }));
    const other = buildFleet({ seed: 7, hosts: 24 });
    expect(other.hosts[0]?.gpus[0]?.uuid).not.toBe(demo.hosts[0]?.gpus[0]?.uuid);
    expect(other.hosts.map((h) => h.instanceType)).toEqual(demo.hosts.map((h) => h.instanceType));
  });

  it("keeps the first hosts when the fleet grows, and takes a prefix when it shrinks", () => {
    const big = buildFleet({ seed: 42, hosts: 60 });
    expect(big.hosts.slice(0, 24)).toEqual(demo.hosts);
    expect(buildFleet({ seed: 42, hosts: 5 }).hosts).toEqual(demo.hosts.slice(0, 5));
  });

  it("builds 1,000 hosts (~8,000 GPUs), all valid", () => {
    const fleet = buildFleet({ seed: 42, hosts: 1000 });
    const n = gpus(fleet).length;
    expect(n).toBeGreaterThan(7000);
    expect(n).toBeLessThan(8200);
    expect(new Set(fleet.hosts.map((h) => h.hostname)).size).toBe(1000);
    const types = new Set(fleet.hosts.map((h) => h.instanceType));
    expect(types.size).toBeGreaterThan(8);
    for (const h of fleet.hosts) {
      if (h.pricingModel === "spot") expect(["aws", "gcp", "azure"]).toContain(h.provider);
      if (h.gpus.some((g) => g.name.startsWith("Tesla V100"))) {
        expect(h.driverVersion.startsWith("590")).toBe(false);
      }
    }
  });

  it("can give every host a fixed GPU count for benchmarks", () => {
    const fleet = buildFleet({ seed: 42, hosts: 3, gpusPerHost: 64 });
    for (const h of fleet.hosts) {
      expect(h.gpus).toHaveLength(64);
      expect(new Set(h.gpus.map((g) => g.pciBusId)).size).toBe(64);
      expect(new Set(h.gpus.map((g) => g.uuid)).size).toBe(64);
    }
  });

  it("keeps each instance type's GPU count when gpusPerHost is absent", () => {
    const [first] = buildFleet({ seed: 42, hosts: 1 }).hosts;
    expect(first?.gpus).toHaveLength(8);
    expect(buildFleet({ seed: 42, hosts: 1, gpusPerHost: 4 }).hosts[0]?.gpus).toHaveLength(4);
  });
});
