// `nvidia-smi -q -x`, trimmed to the elements a MIG-aware reader needs, laid out like the
// A100 80GB MIG capture (DTD v12): mig_mode, mig_devices, fb_memory_usage, processes.
import {
  clockedUp,
  eventReasons,
  reportingGpus,
  serialOf,
  type FieldContext,
} from "./field-groups.ts";
import { gpuModel } from "./gpu-models.ts";
import { ctime, migDevice, mib, processNodes, xml, type Node } from "./render-xml-parts.ts";
import type { SimGpuSample, SimGpuSpec, SimHostSpec } from "./types.ts";

const CUDA_BY_DRIVER: Readonly<Record<string, string>> = { "590": "13.1", "580": "13.0" };

function gpuXml(host: SimHostSpec, gpu: SimGpuSpec, s: SimGpuSample, at: Date): string {
  const model = gpuModel(gpu.name);
  const c: FieldContext = { host, gpu, s, model, at };
  const capable = model.migProfiles !== undefined || model.name === "NVIDIA H200";
  const mode = capable ? (gpu.profile === "mig" ? "Enabled" : "Disabled") : "N/A";
  const mig = gpu.profile === "mig";
  const reasons = eventReasons(c);
  const reason = (bit: number) => ((reasons & bit) !== 0 ? "Active" : "Not Active");
  const pct = (v: number | null) => (v === null ? "N/A" : `${v} %`);
  const [domain = "00000000", bus = "00", devFn = "00.0"] = gpu.pciBusId.split(":");
  const reserved = model.memory.reservedMiB;
  const head: Node[] = [
    ["product_name", gpu.name],
    ["product_brand", "NVIDIA"],
    ["product_architecture", model.arch],
    ["display_mode", "Disabled"],
    ["display_active", "Disabled"],
    ["persistence_mode", "Enabled"],
    ["addressing_mode", "None"],
    [
      "mig_mode",
      [
        ["current_mig", mode],
        ["pending_mig", mode],
      ],
    ],
  ];
  const devices = mig
    ? xml(
        [
          [
            "mig_devices",
            (gpu.mig ?? []).map((mi, i) =>
              migDevice(model, mi, i, s.migMemoryUsedMiB?.[mi.gpuInstanceId] ?? 0),
            ),
          ],
        ],
        2,
      )
    : "        <mig_devices>\n            None\n        </mig_devices>\n";
  const body: Node[] = [
    ["accounting_mode", "Disabled"],
    ["accounting_mode_buffer_size", "4000"],
    ["serial", serialOf(gpu.uuid)],
    ["uuid", gpu.uuid],
    ["minor_number", String(gpu.index)],
    ["vbios_version", model.vbios],
    [
      "pci",
      [
        ["pci_bus", bus],
        ["pci_device", devFn.split(".")[0] ?? "00"],
        ["pci_domain", domain.slice(-4)],
        ["pci_device_id", model.pci.deviceId.slice(2)],
        ["pci_bus_id", gpu.pciBusId],
        ["pci_sub_system_id", model.pci.subDeviceId.slice(2)],
      ],
    ],
    ["fan_speed", s.fanSpeedPct === null ? "N/A" : `${s.fanSpeedPct} %`],
    ["performance_state", `P${s.pstate}`],
    [
      "clocks_event_reasons",
      [
        ["clocks_event_reason_gpu_idle", reason(0x1)],
        ["clocks_event_reason_applications_clocks_setting", reason(0x2)],
        ["clocks_event_reason_sw_power_cap", reason(0x4)],
        ["clocks_event_reason_hw_slowdown", reason(0x8)],
        ["clocks_event_reason_hw_thermal_slowdown", reason(0x40)],
        ["clocks_event_reason_hw_power_brake_slowdown", reason(0x80)],
        ["clocks_event_reason_sync_boost", reason(0x10)],
        ["clocks_event_reason_sw_thermal_slowdown", reason(0x20)],
        ["clocks_event_reason_display_clocks_setting", reason(0x100)],
      ],
    ],
    [
      "fb_memory_usage",
      [
        ["total", mib(gpu.memoryTotalMiB)],
        ["reserved", mib(reserved)],
        ["used", mib(s.memoryUsedMiB)],
        ["free", mib(Math.max(0, gpu.memoryTotalMiB - reserved - s.memoryUsedMiB))],
      ],
    ],
    ["compute_mode", "Default"],
    [
      "utilization",
      [
        ["gpu_util", pct(s.utilizationGpu)],
        ["memory_util", pct(s.utilizationMemory)],
        ["encoder_util", mig ? "N/A" : "0 %"],
        ["decoder_util", mig ? "N/A" : "0 %"],
      ],
    ],
    [
      "ecc_errors",
      (["volatile", "aggregate"] as const).map((scope): Node => [
        scope,
        [
          ["sram_correctable", "0"],
          ["sram_uncorrectable", "0"],
          ["dram_correctable", String(s.eccCorrected)],
          ["dram_uncorrectable", String(s.eccUncorrected)],
        ],
      ]),
    ],
    ["temperature", [["gpu_temp", `${s.temperatureC} C`]]],
    [
      "gpu_power_readings",
      [
        ["power_state", `P${s.pstate}`],
        ["power_draw", `${s.powerDrawW.toFixed(2)} W`],
        ["current_power_limit", `${gpu.powerLimitW.toFixed(2)} W`],
        ["default_power_limit", `${model.power.limitW.toFixed(2)} W`],
        ["min_power_limit", `${model.power.minW.toFixed(2)} W`],
        ["max_power_limit", `${model.power.limitW.toFixed(2)} W`],
      ],
    ],
    [
      "clocks",
      [
        ["graphics_clock", `${s.smClockMHz} MHz`],
        ["sm_clock", `${s.smClockMHz} MHz`],
        ["mem_clock", `${s.memClockMHz} MHz`],
        ["video_clock", `${clockedUp(c) ? model.clocks.videoMax : model.clocks.videoIdle} MHz`],
      ],
    ],
  ];
  const procs = processNodes(gpu, s);
  const processes = procs.length > 0 ? xml([["processes", procs]], 2) : "        <processes />\n";
  return `    <gpu id="${gpu.pciBusId}">\n${xml(head, 2)}${devices}${xml(body, 2)}${processes}        <accounted_processes />\n    </gpu>\n`;
}

/** `nvidia-smi -q -x` for the host's reporting GPUs; `at` feeds <timestamp>. */
export function renderMigXml(
  host: SimHostSpec,
  samples: readonly SimGpuSample[],
  at: Date = new Date(),
): string {
  const gpus = reportingGpus(host, samples);
  const cuda = CUDA_BY_DRIVER[host.driverVersion.split(".")[0] ?? ""] ?? "12.8";
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v12.dtd">\n' +
    "<nvidia_smi_log>\n" +
    xml(
      [
        ["timestamp", ctime(at)],
        ["driver_version", host.driverVersion],
        ["cuda_version", cuda],
        ["attached_gpus", String(gpus.length)],
      ],
      1,
    ) +
    gpus.map(({ gpu, s }) => gpuXml(host, gpu, s, at)).join("") +
    "</nvidia_smi_log>\n"
  );
}
