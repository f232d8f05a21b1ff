// GPU rows for the fake nvidia-smi: field name → value exactly as nvidia-smi would print it
// with --format=csv,noheader,nounits. Missing fields print "[N/A]".

import { join } from "node:path";
import { OWN_FIXTURES, type FakeGpu, type FakeState } from "./helpers.ts";

export const UUID0 = "GPU-a0000000-0000-4000-8000-000000000000";
export const UUID1 = "GPU-b0000000-0000-4000-8000-000000000000";

export function fakeGpu(index: number, uuid: string, extra: FakeGpu = {}): FakeGpu {
  return {
    index: String(index),
    uuid,
    name: "NVIDIA H100 80GB HBM3",
    "pci.bus_id": index === 0 ? "00000000:53:00.0" : "00000000:64:00.0",
    driver_version: "590.48.01",
    "mig.mode.current": "Disabled",
    "utilization.gpu": "97",
    "utilization.memory": "41",
    "memory.total": "81559",
    "memory.used": "70000",
    "memory.free": "11080",
    "temperature.gpu": "50",
    "power.draw": "612.50",
    "power.limit": "700.00",
    "enforced.power.limit": "700.00",
    "clocks.current.sm": "1980",
    "clocks.current.memory": "2619",
    "fan.speed": "[N/A]",
    pstate: "P0",
    "ecc.errors.corrected.volatile.total": "2",
    "ecc.errors.uncorrected.volatile.total": "0",
    "clocks_event_reasons.supported": "0x00000000000001FF",
    "clocks_event_reasons.active": "0x0000000000000004",
    "clocks_event_reasons.gpu_idle": "Not Active",
    "clocks_event_reasons.applications_clocks_setting": "Not Active",
    "clocks_event_reasons.sw_power_cap": "Active",
    "clocks_event_reasons.hw_slowdown": "Not Active",
    "clocks_event_reasons.sync_boost": "Not Active",
    "clocks_event_reasons.sw_thermal_slowdown": "Not Active",
    "clocks_event_reasons.hw_thermal_slowdown": "Not Active",
    "clocks_event_reasons.hw_power_brake_slowdown": "Not Active",
    ...extra,
  };
}

export function twoH100s(temperature = "50"): FakeState {
  return {
    mode: "ok",
    helpFile: join(OWN_FIXTURES, "help-query-gpu-modern.txt"),
    gpus: [
      fakeGpu(0, UUID0, { "temperature.gpu": temperature }),
      fakeGpu(1, UUID1, {
        "mig.mode.current": "Enabled",
        "utilization.gpu": "[N/A]",
        "utilization.memory": "[N/A]",
        "temperature.gpu": temperature,
      }),
    ],
    processes: [
      { gpu_uuid: UUID0, pid: "4100", used_gpu_memory: "70000", process_name: "python, train.py" },
      { gpu_uuid: UUID1, pid: "4200", used_gpu_memory: "30000", process_name: "/usr/bin/vllm" },
    ],
    xmlFile: join(OWN_FIXTURES, "q-x-h100-mig.xml"),
    list: "", // filled per test when profiles matter
  };
}
