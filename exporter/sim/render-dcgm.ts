// The simulated profiling fields as dcgm-exporter prints them (label set and %f of 4.x), so a
// test can prove the DCGM parser and mapping read exactly what the simulated source copies
// straight from the samples. samples[i] is host.gpus[i]'s sample.
import { reportingGpus } from "./field-groups.ts";
import type { SimGpuSample, SimHostSpec, SimProfiling } from "./types.ts";

type Field = [name: string, help: string, value: (p: SimProfiling) => number | undefined];

const FIELDS: readonly Field[] = [
  [
    "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
    "Ratio of time the graphics engine is active.",
    (p) => p.grEngineActive,
  ],
  [
    "DCGM_FI_PROF_SM_ACTIVE",
    "The ratio of cycles an SM has at least 1 warp assigned.",
    (p) => p.smActive,
  ],
  [
    "DCGM_FI_PROF_SM_OCCUPANCY",
    "The ratio of number of warps resident on an SM.",
    (p) => p.smOccupancy,
  ],
  [
    "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE",
    "Ratio of cycles the tensor (HMMA) pipe is active.",
    (p) => p.tensorActive,
  ],
  [
    "DCGM_FI_PROF_DRAM_ACTIVE",
    "Ratio of cycles the device memory interface is active sending or receiving data.",
    (p) => p.dramActive,
  ],
  [
    "DCGM_FI_PROF_PCIE_TX_BYTES",
    "The rate of data transmitted over the PCIe bus - including both protocol headers and data payloads - in bytes per second.",
    (p) => p.pcieTxBytesPerSecond,
  ],
  [
    "DCGM_FI_PROF_PCIE_RX_BYTES",
    "The rate of data received over the PCIe bus - including both protocol headers and data payloads - in bytes per second.",
    (p) => p.pcieRxBytesPerSecond,
  ],
  [
    "DCGM_FI_PROF_NVLINK_TX_BYTES",
    "The rate of data not including protocol headers transmitted over NVLink (in B/s).",
    (p) => p.nvlinkTxBytesPerSecond,
  ],
  [
    "DCGM_FI_PROF_NVLINK_RX_BYTES",
    "The rate of data not including protocol headers received over NVLink (in B/s).",
    (p) => p.nvlinkRxBytesPerSecond,
  ],
];

const RATIOS = new Set(FIELDS.slice(0, 5).map(([name]) => name));

/** `curl <dcgm-exporter>/metrics`, profiling fields only; empty when no GPU has them. */
export function renderDcgmProfiling(host: SimHostSpec, samples: readonly SimGpuSample[]): string {
  const rows = reportingGpus(host, samples).flatMap(({ gpu, s }) =>
    s.profiling
      ? [
          {
            p: s.profiling,
            labels:
              `gpu="${gpu.index}",UUID="${gpu.uuid}",pci_bus_id="${gpu.pciBusId}",` +
              `device="nvidia${gpu.index}",modelName="${gpu.name}",Hostname="${host.hostname}",` +
              `DCGM_FI_DRIVER_VERSION="${host.driverVersion}"`,
          },
        ]
      : [],
  );
  let out = "";
  for (const [name, help, value] of FIELDS) {
    const lines = rows.flatMap(({ p, labels }) => {
      const v = value(p);
      if (v === undefined) return [];
      // dcgm-exporter prints doubles with %f and integers as they are
      return [`${name}{${labels}} ${RATIOS.has(name) ? v.toFixed(6) : String(v)}\n`];
    });
    if (lines.length > 0) out += `# HELP ${name} ${help}\n# TYPE ${name} gauge\n${lines.join("")}`;
  }
  return out;
}
