import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../log.ts";
import { startExporter, type RunningExporter } from "../server.ts";
import { UUID0, UUID1, fakeGpu, twoH100s } from "../test/fake-gpus.ts";
import {
  FAKE_NVSMI,
  FakeNvidiaSmi,
  HAVE_PROMTOOL,
  OWN_FIXTURES,
  promtool,
  sample,
  waitFor,
} from "../test/helpers.ts";

let exporter: RunningExporter | undefined;
afterEach(async () => {
  await exporter?.close();
  exporter = undefined;
});

async function start(extra: Parameters<typeof startExporter>[0] = {}) {
  exporter = await startExporter({
    listenAddress: "127.0.0.1:0",
    nvidiaSmiPath: FAKE_NVSMI,
    intervalMs: 150,
    logger: silentLogger,
    tuning: { startupGraceMs: 2000, commandTimeoutMs: 5000, migIntervalMs: 60_000 },
    ...extra,
  });
  return exporter;
}

async function scrape(e: RunningExporter, path = "/metrics"): Promise<string> {
  const res = await fetch(e.url + path);
  expect(res.status).toBe(200);
  return res.text();
}

describe("nvidia-smi source with a fake nvidia-smi", () => {
  it("streams GPUs, processes and MIG instances into the contract", async () => {
    const fake = new FakeNvidiaSmi({
      ...twoH100s(),
      list: readFileSync(join(OWN_FIXTURES, "list-h100-mig.txt"), "utf8"),
    });
    const e = await start({
      compat: "dcgm",
      host: { hostname: "node-1", provider: "aws", labels: { team: "ml" } },
    });
    const text = await waitFor(async () => {
      const t = await scrape(e);
      return sample(t, "gpu_mig_memory_used_bytes") !== undefined ? t : undefined;
    }, "MIG series");

    const g0 = { gpu: "0", uuid: UUID0 };
    const g1 = { gpu: "1", uuid: UUID1 };
    expect(
      sample(text, "gpu_info", { ...g0, name: "NVIDIA H100 80GB HBM3", mig_mode: "disabled" }),
    ).toBe(1);
    expect(
      sample(text, "gpu_info", { ...g1, mig_mode: "enabled", pci_bus_id: "00000000:64:00.0" }),
    ).toBe(1);
    expect(sample(text, "gpu_utilization_ratio", g0)).toBe(0.97);
    expect(sample(text, "gpu_utilization_ratio", g1)).toBeUndefined(); // [N/A] under MIG
    expect(sample(text, "gpu_memory_used_bytes", g0)).toBe(70000 * 1024 ** 2);
    expect(sample(text, "gpu_power_draw_watts", g0)).toBe(612.5);
    expect(sample(text, "gpu_sm_clock_hertz", g0)).toBe(1.98e9);
    expect(sample(text, "gpu_fan_speed_ratio", g0)).toBeUndefined();
    expect(sample(text, "gpu_ecc_errors_total", { ...g0, type: "corrected" })).toBe(2);
    expect(sample(text, "gpu_clock_event_active", { ...g0, reason: "sw_power_cap" })).toBe(1);
    expect(sample(text, "gpu_clock_event_active", { ...g0, reason: "gpu_idle" })).toBe(0);
    expect(sample(text, "gpu_processes", g0)).toBe(1);
    expect(
      sample(text, "gpu_process_memory_used_bytes", {
        ...g0,
        pid: "4100",
        process_name: "python, train.py",
      }),
    ).toBe(70000 * 1024 ** 2);
    const mig = { ...g1, gpu_instance_id: "2", mig_profile: "3g.40gb" };
    expect(sample(text, "gpu_mig_memory_used_bytes", mig)).toBe(30000 * 1024 ** 2);
    expect(sample(text, "gpu_mig_memory_total_bytes", mig)).toBe(40448 * 1024 ** 2);
    expect(
      sample(text, "gpu_mig_memory_total_bytes", { gpu_instance_id: "9", mig_profile: "1g.10gb" }),
    ).toBe(9984 * 1024 ** 2);
    expect(
      sample(text, "gpu_host_info", {
        hostname: "node-1",
        provider: "aws",
        pricing_model: "on_demand",
        team: "ml",
      }),
    ).toBe(1);
    for (const c of ["nvidia_smi", "nvidia_smi_processes", "nvidia_smi_mig"]) {
      expect(sample(text, "gpu_exporter_collector_success", { collector: c })).toBe(1);
    }
    expect(
      sample(text, "DCGM_FI_DEV_GPU_UTIL", {
        gpu: "0",
        UUID: UUID0,
        device: "nvidia0",
        Hostname: "node-1",
      }),
    ).toBe(97);
    expect(
      sample(text, "DCGM_FI_DEV_FB_USED", { UUID: UUID0, modelName: "NVIDIA H100 80GB HBM3" }),
    ).toBe(70000);
    expect(sample(text, "DCGM_FI_DEV_SM_CLOCK", { UUID: UUID0 })).toBe(1980);

    // one long-lived child per stream; -q -x and -L once, not per scrape. A stream the exporter
    // judged hung (no line for 3 intervals: a loaded machine can stall the fake that long) is
    // restarted, which is right, so what is pinned is that scrapes spawn nothing.
    const kinds = () => {
      const args = fake.runs().map((r) => r.args.split(" ")[0]);
      return {
        query: args.filter((a) => a?.startsWith("--query-gpu=")).length,
        apps: args.filter((a) => a?.startsWith("--query-compute-apps=")).length,
        snapshot: args.filter((a) => a === "-q").length,
      };
    };
    const before = kinds();
    expect(before.query).toBeGreaterThanOrEqual(1);
    expect(before.apps).toBeGreaterThanOrEqual(1);
    expect(before.snapshot).toBe(1);
    await Promise.all([scrape(e), scrape(e), scrape(e), scrape(e), scrape(e)]);
    expect(kinds()).toEqual(before);
  });

  it.skipIf(!HAVE_PROMTOOL)(
    "passes promtool check metrics (only dcgm's camelCase label in compat)",
    async () => {
      new FakeNvidiaSmi(twoH100s());
      const e = await start({ compat: "dcgm" });
      const text = await waitFor(async () => {
        const t = await scrape(e);
        return sample(t, "gpu_temperature_celsius") !== undefined ? t : undefined;
      }, "GPU series");
      const base = promtool(
        text
          .split("\n")
          .filter((l) => !l.includes("DCGM_FI_"))
          .join("\n"),
      );
      expect(base).toEqual({ status: 0, problems: [] });
      const compat = promtool(text);
      expect(
        compat.problems.every((p) =>
          /^DCGM_FI_DEV_\w+ label names should be written in 'snake_case'/.test(p),
        ),
      ).toBe(true);
    },
  );

  it("asks an older driver only for fields it lists", async () => {
    const fake = new FakeNvidiaSmi({
      mode: "ok",
      helpFile: join(OWN_FIXTURES, "help-query-gpu-old-driver.txt"),
      gpus: [
        fakeGpu(0, UUID0, {
          "clocks_throttle_reasons.supported": "0x00000000000000FF",
          "clocks_throttle_reasons.active": "0x0000000000000001",
          "clocks_throttle_reasons.gpu_idle": "Active",
        }),
      ],
    });
    const e = await start();
    const text = await waitFor(async () => {
      const t = await scrape(e);
      return sample(t, "gpu_temperature_celsius") !== undefined ? t : undefined;
    }, "GPU series");
    expect(sample(text, "gpu_clock_event_active", { reason: "gpu_idle" })).toBe(1);
    expect(sample(text, "gpu_power_limit_watts")).toBe(700);
    expect(sample(text, "gpu_info", { mig_mode: "disabled" })).toBe(1);
    expect(sample(text, "gpu_exporter_collector_success", { collector: "nvidia_smi" })).toBe(1);
    const query = fake.runs().filter((r) => r.args.startsWith("--query-gpu="));
    expect(query).toHaveLength(1); // the fake would have exited on an unknown field
    expect(query[0]?.args).toContain("clocks_throttle_reasons.gpu_idle");
    expect(query[0]?.args).not.toContain("mig.mode.current");
  });

  it("reports failure, not a failed scrape, when nvidia-smi is missing", async () => {
    const e = await start({ nvidiaSmiPath: "/nonexistent/nvidia-smi" });
    const text = await waitFor(async () => {
      const t = await scrape(e);
      return sample(t, "gpu_exporter_collector_success", { collector: "nvidia_smi" }) === 0
        ? t
        : undefined;
    }, "success 0");
    expect(sample(text, "gpu_info")).toBeUndefined();
    expect(sample(text, "gpu_host_info")).toBe(1);
  });
});
