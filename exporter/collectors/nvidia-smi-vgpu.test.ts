// Virtualization mode and vGPU licence reach gpu_info and gpu_vgpu_* through the occasional
// -q -x snapshot, which runs once on a plain host and never per scrape.

import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../log.ts";
import { startExporter, type RunningExporter } from "../server.ts";
import { fakeGpu, twoH100s } from "../test/fake-gpus.ts";
import {
  FAKE_NVSMI,
  FakeNvidiaSmi,
  HAVE_PROMTOOL,
  OWN_FIXTURES,
  SHARED_FIXTURES,
  promtool,
  sample,
  waitFor,
} from "../test/helpers.ts";

let exporter: RunningExporter | undefined;
afterEach(async () => {
  await exporter?.close();
  exporter = undefined;
});

async function startAndWait(
  metric: string,
  labels: Record<string, string> = {},
): Promise<{ e: RunningExporter; text: string }> {
  const e = await startExporter({
    listenAddress: "127.0.0.1:0",
    nvidiaSmiPath: FAKE_NVSMI,
    intervalMs: 150,
    logger: silentLogger,
    tuning: { startupGraceMs: 500, commandTimeoutMs: 2000, migIntervalMs: 60_000 },
  });
  exporter = e;
  const text = await waitFor(async () => {
    const t = await (await fetch(`${e.url}/metrics`)).text();
    return sample(t, metric, labels) !== undefined ? t : undefined;
  }, metric);
  return { e, text };
}

describe("nvidia-smi -q -x details", () => {
  it("a vGPU guest: licence state and expiry, joined by PCI bus id", async () => {
    const guest = fakeGpu(0, "GPU-c0000000-0000-4000-8000-000000000000", {
      name: "NVIDIA L40S-2Q",
      "pci.bus_id": "00000000:00:07.0",
    });
    const fake = new FakeNvidiaSmi({
      ...twoH100s(),
      gpus: [guest],
      processes: [],
      xmlFile: join(OWN_FIXTURES, "vgpu/q-x-vgpu-guest-l40s-2q-580-trimmed.xml"),
    });
    const { e, text } = await startAndWait("gpu_vgpu_licensed");
    const g = { gpu: "0", uuid: "GPU-c0000000-0000-4000-8000-000000000000" };
    expect(
      sample(text, "gpu_vgpu_licensed", {
        ...g,
        licensed_product: "NVIDIA RTX Virtual Workstation",
      }),
    ).toBe(1);
    expect(sample(text, "gpu_vgpu_license_expiry_timestamp_seconds", g)).toBe(
      Date.UTC(2026, 6, 7, 16, 1, 44) / 1000,
    );
    // the trimmed capture has no <gpu_virtualization_mode>: the label is left out, not guessed
    expect(text).toMatch(/^gpu_info\{(?!.*virtualization_mode).*\} 1$/m);
    expect(
      sample(text, "gpu_exporter_collector_success", { collector: "nvidia_smi_details" }),
    ).toBe(1);
    if (HAVE_PROMTOOL) expect(promtool(text)).toEqual({ status: 0, problems: [] });
    for (let i = 0; i < 3; i++) await fetch(`${e.url}/metrics`);
    expect(fake.runs().filter((r) => r.args.startsWith("-q"))).toHaveLength(1);
  });

  it("a passthrough GPU: gpu_info says Pass-Through and no licence series exist", async () => {
    const uuid = "GPU-d37e67a5-91dd-3774-a5cb-99096249601a"; // the real T4 capture's
    new FakeNvidiaSmi({
      ...twoH100s(),
      gpus: [fakeGpu(0, uuid, { name: "Tesla T4", "pci.bus_id": "00000000:00:1E.0" })],
      processes: [],
      xmlFile: join(SHARED_FIXTURES, "q-x-tesla-t4-515.xml"),
    });
    const { text } = await startAndWait("gpu_info", { virtualization_mode: "Pass-Through" });
    expect(sample(text, "gpu_info", { uuid, name: "Tesla T4" })).toBe(1);
    expect(text).not.toContain("gpu_vgpu_licensed");
  });
});
