import { describe, expect, it } from "vitest";
import { shared } from "../test/helpers.ts";
import { mapDcgm } from "./map.ts";
import { parsePrometheusText } from "./parse-text.ts";

const read = (text: string) => {
  const parsed = parsePrometheusText(text);
  expect(parsed.warnings).toEqual([]);
  return mapDcgm(parsed.items);
};

describe("DCGM profiling fields on real dcgm-exporter scrapes", () => {
  it("maps a T4 under load (ECCD conformance capture): ratios as given, PCIe in bytes/s", () => {
    const { gpus, mig, warnings } = read(shared("dcgm-exporter-prof-tesla-t4-590-eccd.prom"));
    expect(warnings).toEqual([]);
    expect(mig).toEqual([]);
    expect(gpus).toHaveLength(1);
    expect(gpus[0]).toMatchObject({
      index: 0,
      uuid: "GPU-6d5c0ac5-74d7-3130-46f1-e93ed57f469a",
      name: "Tesla T4",
      utilizationRatio: 0.91,
      // time-based utilization says 91 %, the engine was busy 16 % of the time
      graphicsEngineActiveRatio: 0.156205,
      tensorActiveRatio: 0.005822,
      dramActiveRatio: 0.092781,
      pcieTxBytesPerSecond: 4791810,
      pcieRxBytesPerSecond: 6935930,
    });
    // the default dcgm-exporter counters leave SM active/occupancy out; a T4 has no NVLink
    for (const key of [
      "smActiveRatio",
      "smOccupancyRatio",
      "nvlinkTxBytesPerSecond",
      "nvlinkRxBytesPerSecond",
    ] as const) {
      expect(gpus[0]?.[key]).toBeUndefined();
    }
  });

  it("maps SM active and occupancy (GKE T4s, NVIDIA/DCGM#191): a real 0 stays 0", () => {
    const { gpus, warnings } = read(
      shared("dcgm-exporter-prof-sm-active-tesla-t4-gke-dcgm-issue-191.prom"),
    );
    expect(warnings).toEqual([]);
    expect(gpus.map((g) => [g.index, g.uuid, g.name])).toEqual([
      [0, "GPU-84412445-5790-0b3f-f714-da8aa3b2c0b0", "Tesla T4"],
      [1, "GPU-4812b59b-1f1a-430f-d8a4-69d2ee8c18bb", "Tesla T4"],
    ]);
    for (const g of gpus) {
      expect(g.smActiveRatio).toBe(0);
      expect(g.smOccupancyRatio).toBe(0);
      expect(g.tensorActiveRatio).toBe(0);
      expect(g.dramActiveRatio).toBeUndefined(); // not in this scrape: absent, not 0
      expect(g.utilizationRatio).toBeUndefined();
    }
  });

  it("keeps the label-less dummy series of the Datadog fixture off every GPU", () => {
    const { gpus } = read(shared("dcgm-exporter-metrics-tesla-t4-datadog-fixture.prom"));
    expect(gpus.find((g) => g.uuid === "GPU-abc")?.dramActiveRatio).toBe(0.000003);
    for (const g of gpus.filter((x) => x.uuid !== "GPU-abc")) {
      expect(g.smActiveRatio).toBeUndefined();
      expect(g.pcieTxBytesPerSecond).toBeUndefined();
    }
  });
});

describe("DCGM profiling fields: NVLink, MIG and bad values", () => {
  const labels = (gpu: number, extra = "") =>
    `{gpu="${gpu}",UUID="GPU-${gpu}",device="nvidia${gpu}",modelName="NVIDIA H100 80GB HBM3"${extra}}`;

  it("reads NVLink rates and every ratio field", () => {
    const { gpus, warnings } = read(
      [
        `DCGM_FI_PROF_SM_ACTIVE${labels(0)} 0.812345`,
        `DCGM_FI_PROF_SM_OCCUPANCY${labels(0)} 0.301`,
        `DCGM_FI_PROF_PIPE_TENSOR_ACTIVE${labels(0)} 0.5`,
        `DCGM_FI_PROF_DRAM_ACTIVE${labels(0)} 0.4`,
        `DCGM_FI_PROF_GR_ENGINE_ACTIVE${labels(0)} 0.99`,
        `DCGM_FI_PROF_NVLINK_TX_BYTES${labels(0)} 71234567890`,
        `DCGM_FI_PROF_NVLINK_RX_BYTES${labels(0)} 70123456789`,
      ].join("\n"),
    );
    expect(warnings).toEqual([]);
    expect(gpus[0]).toEqual({
      index: 0,
      uuid: "GPU-0",
      name: "NVIDIA H100 80GB HBM3",
      clockEvents: {},
      smActiveRatio: 0.812345,
      smOccupancyRatio: 0.301,
      tensorActiveRatio: 0.5,
      dramActiveRatio: 0.4,
      graphicsEngineActiveRatio: 0.99,
      nvlinkTxBytesPerSecond: 71234567890,
      nvlinkRxBytesPerSecond: 70123456789,
    });
  });

  it("leaves per-instance values off a GPU in MIG mode", () => {
    const mig = ',GPU_I_PROFILE="3g.40gb",GPU_I_ID="2"';
    const { gpus, mig: instances } = read(
      [
        `DCGM_FI_PROF_SM_ACTIVE${labels(1, mig)} 0.7`,
        `DCGM_FI_PROF_PCIE_RX_BYTES${labels(1, mig)} 1000`,
        `DCGM_FI_DEV_GPU_TEMP${labels(1, mig)} 40`,
      ].join("\n"),
    );
    expect(gpus[0]).toMatchObject({ migEnabled: true, temperatureCelsius: 40 });
    expect(gpus[0]?.smActiveRatio).toBeUndefined();
    expect(gpus[0]?.pcieRxBytesPerSecond).toBeUndefined();
    expect(instances).toHaveLength(1);
  });

  it("drops DCGM's blank sentinels, negative values and ratios above 1, saying which", () => {
    const { gpus, warnings } = read(
      [
        `DCGM_FI_PROF_SM_ACTIVE${labels(0)} 140737488355328`,
        `DCGM_FI_PROF_PCIE_TX_BYTES${labels(0)} 9223372036854775794`,
        `DCGM_FI_PROF_PCIE_RX_BYTES${labels(0)} -5`,
        `DCGM_FI_PROF_DRAM_ACTIVE${labels(0)} 1.5`,
        `DCGM_FI_PROF_PIPE_TENSOR_ACTIVE${labels(0)} NaN`,
        `DCGM_FI_PROF_SM_OCCUPANCY${labels(0)} 1`,
      ].join("\n"),
    );
    expect(gpus[0]?.smOccupancyRatio).toBe(1); // the top of the range is a value
    for (const key of [
      "smActiveRatio",
      "pcieTxBytesPerSecond",
      "pcieRxBytesPerSecond",
      "dramActiveRatio",
      "tensorActiveRatio",
    ] as const) {
      expect(gpus[0]?.[key]).toBeUndefined();
    }
    expect(warnings).toEqual([
      "DCGM_FI_PROF_SM_ACTIVE 140737488355328 for GPU-0 left out: DCGM's blank value",
      "DCGM_FI_PROF_PCIE_TX_BYTES 9223372036854776000 for GPU-0 left out: DCGM's blank value",
      "DCGM_FI_PROF_PCIE_RX_BYTES -5 for GPU-0 left out: negative",
      "DCGM_FI_PROF_DRAM_ACTIVE 1.5 for GPU-0 left out: a ratio above 1",
    ]);
  });
});
