import { describe, expect, it } from "vitest";
import { buildFleet } from "./fleet.ts";
import { renderComputeApps, renderMigXml, renderQueryGpu } from "./render.ts";
import { sampleHost } from "./sample.ts";
import { captureRow, DEMO_AT, fixture, kind } from "./testing.ts";
import type { SimGpuSample, SimHostSpec } from "./types.ts";

const fleet = buildFleet({ seed: 42, hosts: 24 });
const H200_ALL = captureRow("query-gpu-h200-590-load.csv");
const H100_MIG_ALL = captureRow("query-gpu-h100-80gb-mig-590-load.csv");
const APP_FIELDS = captureRow("query-compute-apps-h100-80gb-mig-590-load.csv").fields;

function hostWith(pred: (h: SimHostSpec) => boolean): SimHostSpec {
  const host = fleet.hosts.find(pred);
  if (!host) throw new Error("no such demo host");
  return host;
}
const migHost = hostWith((h) => h.gpus.some((g) => g.profile === "mig" && g.name.includes("H100")));
const h200Host = hostWith((h) => h.gpus.some((g) => g.name === "NVIDIA H200"));
const lines = (text: string) => text.split("\n").slice(0, -1);

/** the printed line of one GPU, split into values */
function valuesOf(host: SimHostSpec, gpuIndex: number, fields: string[]): string[] {
  const samples = sampleHost(fleet, host, DEMO_AT);
  const visible = host.gpus.filter((_, i) => samples[i]?.reporting);
  const row = visible.findIndex((g) => g.index === gpuIndex);
  return (lines(renderQueryGpu(host, samples, fields, DEMO_AT))[row] ?? "").split(", ");
}

describe("renderQueryGpu", () => {
  it("prints every 590 field with the same shape as the H200 capture", () => {
    const gpu = h200Host.gpus.find((g) => g.profile === "training");
    const ours = valuesOf(h200Host, gpu?.index ?? 0, H200_ALL.fields);
    expect(ours).toHaveLength(H200_ALL.fields.length);
    const differ = H200_ALL.fields.filter(
      (_, i) => kind(ours[i] ?? "?") !== kind(H200_ALL.values[i] ?? "!"),
    );
    expect(differ).toEqual([]);
  });

  it("prints a MIG GPU as the H100 MIG capture does ([N/A] utilization, N/A health)", () => {
    const gpu = migHost.gpus.find((g) => g.profile === "mig");
    const ours = valuesOf(migHost, gpu?.index ?? 0, H100_MIG_ALL.fields);
    const differ = H100_MIG_ALL.fields.filter(
      (_, i) => kind(ours[i] ?? "?") !== kind(H100_MIG_ALL.values[i] ?? "!"),
    );
    expect(differ).toEqual([]);
    const at = (f: string) => ours[H100_MIG_ALL.fields.indexOf(f)];
    expect(at("utilization.gpu")).toBe("[N/A]");
    expect(at("mig.mode.current")).toBe("Enabled");
    expect(at("fabric.health.summary")).toBe("N/A");
  });

  it("prints one nounits line per GPU: bare numbers, ', ' separators, trailing newline", () => {
    const host = fleet.hosts[0] as SimHostSpec;
    const fields = ["index", "uuid", "name", "utilization.gpu", "memory.used", "power.draw"];
    const text = renderQueryGpu(host, sampleHost(fleet, host, DEMO_AT), fields, DEMO_AT);
    expect(text.endsWith("\n")).toBe(true);
    expect(lines(text)).toHaveLength(host.gpus.length);
    for (const [i, line] of lines(text).entries()) {
      const v = line.split(", ");
      expect(v).toHaveLength(fields.length);
      expect(v[0]).toBe(String(i));
      expect(v[2]).toBe("NVIDIA A100-SXM4-40GB");
      expect(v[3]).toMatch(/^\d+$/);
      expect(v[5]).toMatch(/^\d+\.\d\d$/);
    }
  });

  it("accepts aliases and prints [N/A] for unknown fields", () => {
    const host = fleet.hosts[4] as SimHostSpec;
    const samples = sampleHost(fleet, host, DEMO_AT);
    const a = renderQueryGpu(host, samples, [
      "gpu_name",
      "clocks.sm",
      "clocks_throttle_reasons.active",
    ]);
    const b = renderQueryGpu(host, samples, [
      "name",
      "clocks.current.sm",
      "clocks_event_reasons.active",
    ]);
    expect(a).toBe(b);
    expect(renderQueryGpu(host, samples, ["no.such.field"])).toBe("[N/A]\n");
  });

  it("prints the P100-style idle tokens: [N/A] fan, P8 at idle on PCIe boards", () => {
    const host = hostWith(
      (h) => h.instanceType === "Standard_NC4as_T4_v3" && h.gpus[0]?.profile === "empty_idle",
    );
    const text = renderQueryGpu(host, sampleHost(fleet, host, DEMO_AT), [
      "fan.speed",
      "pstate",
      "clocks_event_reasons.gpu_idle",
    ]);
    expect(text).toBe("[N/A], P8, Active\n");
  });

  it("leaves out a faulty GPU while it is off the bus, and is deterministic", () => {
    const host = hostWith((h) => h.gpus.some((g) => g.profile === "faulty"));
    const samples = sampleHost(fleet, host, DEMO_AT);
    const off: SimGpuSample[] = samples.map((s, i) =>
      host.gpus[i]?.profile === "faulty" ? { ...s, reporting: false } : s,
    );
    expect(lines(renderQueryGpu(host, off, ["index"], DEMO_AT))).toHaveLength(host.gpus.length - 1);
    expect(renderQueryGpu(host, samples, H200_ALL.fields, DEMO_AT)).toBe(
      renderQueryGpu(
        host,
        sampleHost(buildFleet({ seed: 42, hosts: 24 }), host, DEMO_AT),
        H200_ALL.fields,
        DEMO_AT,
      ),
    );
  });
});

describe("renderComputeApps", () => {
  it("prints the capture's fields per process, the parent uuid under MIG", () => {
    const samples = sampleHost(fleet, migHost, DEMO_AT);
    const text = renderComputeApps(migHost, samples, APP_FIELDS, DEMO_AT);
    const procs = samples.reduce((n, s) => n + s.processes.length, 0);
    expect(lines(text)).toHaveLength(procs);
    const uuids = new Set(migHost.gpus.map((g) => g.uuid));
    for (const line of lines(text)) {
      const v = line.split(", ");
      expect(v).toHaveLength(APP_FIELDS.length);
      expect(v[0]).toMatch(/^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d\.\d{3}$/);
      expect(uuids.has(v[4] ?? "")).toBe(true);
      expect(v[5]).toMatch(/^\d+$/);
      expect(v[7]).toMatch(/^\d+$/);
    }
  });

  it("prints nothing when no process runs", () => {
    const host = hostWith((h) => h.gpus.every((g) => g.profile === "empty_idle"));
    expect(renderComputeApps(host, sampleHost(fleet, host, DEMO_AT), ["pid"])).toBe("");
  });
});

describe("renderMigXml", () => {
  const xml = renderMigXml(migHost, sampleHost(fleet, migHost, DEMO_AT), DEMO_AT);

  it("opens like the real -q -x document and is well formed", () => {
    const real = fixture("q-x-a100-sxm4-80gb-mig-535.xml").split("\n").slice(0, 3);
    expect(xml.split("\n").slice(0, 3)).toEqual(real);
    const stack: string[] = [];
    for (const [, close, name, self] of xml.matchAll(/<(\/?)([a-z_0-9]+)[^>]*?(\/?)>/g)) {
      if (self) continue;
      if (close) expect(stack.pop()).toBe(name);
      else stack.push(name ?? "");
    }
    expect(stack).toEqual([]);
  });

  it("lists each MIG instance with ids and memory, and mig_mode per GPU", () => {
    const gpu = migHost.gpus.find((g) => g.profile === "mig");
    for (const mi of gpu?.mig ?? []) {
      expect(xml).toContain(`<gpu_instance_id>${mi.gpuInstanceId}</gpu_instance_id>`);
      expect(xml).toContain(`<total>${mi.memoryTotalMiB} MiB</total>`);
    }
    expect(xml).toMatch(/<current_mig>Enabled<\/current_mig>/);
    expect(xml).toMatch(/<current_mig>Disabled<\/current_mig>/);
    expect(xml).toContain("<gpu_util>N/A</gpu_util>");
    expect(xml.match(/<gpu id=/g)).toHaveLength(migHost.gpus.length);
  });
});
