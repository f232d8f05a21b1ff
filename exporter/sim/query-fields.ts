// Values of `nvidia-smi --query-gpu` fields under `--format=csv,nounits`, per driver 590's
// field list (exporter/test/fixtures/captures/help-query-gpu-590.48.01.txt) and its captures.
import {
  clockedUp,
  DEPRECATED,
  eccFields,
  fabricHealthFields,
  NA,
  reasonFields,
  serialOf,
  timestamp,
  busParts,
  type FieldContext,
  type Value,
} from "./field-groups.ts";
import { hashString } from "./rand.ts";

const hopper = (c: FieldContext) => c.model.arch === "Hopper";
const mig = (c: FieldContext) => c.gpu.profile === "mig";
const driverMajor = (c: FieldContext) => Number.parseInt(c.host.driverVersion, 10);
const if590 = (c: FieldContext, older: string) => (driverMajor(c) >= 590 ? DEPRECATED : older);
const w = (n: number) => n.toFixed(2);

const remapped =
  (v: (c: FieldContext) => string): Value =>
  (c) =>
    c.model.remapHistogramMax === null || mig(c) ? NA : v(c);
const retired =
  (v: (c: FieldContext) => string): Value =>
  (c) =>
    c.model.remapHistogramMax === null ? v(c) : NA;
const hopperOnly =
  (v: string | ((c: FieldContext) => string)): Value =>
  (c) =>
    hopper(c) ? (typeof v === "string" ? v : v(c)) : NA;
const utilization = (c: FieldContext, v: number | null) => (v === null ? NA : String(v));
const engines = (c: FieldContext) => (mig(c) ? NA : "0");
const newEngines = (c: FieldContext) =>
  mig(c) || c.model.arch === "Turing" || c.model.arch === "Volta" || c.model.name.includes("A10G")
    ? NA
    : "0";
const average = (c: FieldContext) =>
  hopper(c) || c.model.arch === "Ada Lovelace" || c.model.name.includes("A10G")
    ? w(c.s.powerDrawW)
    : NA;
const used = (c: FieldContext) => c.s.memoryUsedMiB;
const free = (c: FieldContext) =>
  Math.max(0, c.gpu.memoryTotalMiB - c.model.memory.reservedMiB - used(c));

export const FIELDS: Readonly<Record<string, Value>> = {
  timestamp: (c) => timestamp(c.at),
  driver_version: (c) => c.host.driverVersion,
  count: (c) => String(c.host.gpus.length),
  name: (c) => c.gpu.name,
  serial: (c) => serialOf(c.gpu.uuid),
  uuid: (c) => c.gpu.uuid,
  "pci.bus_id": (c) => c.gpu.pciBusId,
  "pci.domain": (c) => `0x${busParts(c.gpu.pciBusId).domain}`,
  "pci.bus": (c) => `0x${busParts(c.gpu.pciBusId).bus}`,
  "pci.device": (c) => `0x${busParts(c.gpu.pciBusId).device}`,
  "pci.baseClass": () => "0x3",
  "pci.subClass": () => "0x2",
  "pci.device_id": (c) => c.model.pci.deviceId,
  "pci.sub_device_id": (c) => c.model.pci.subDeviceId,
  "pcie.link.gen.current": (c) => String(c.s.pstate === 8 ? 1 : c.model.pcieGen),
  "pcie.link.gen.gpucurrent": (c) => String(c.s.pstate === 8 ? 1 : c.model.pcieGen),
  "pcie.link.gen.max": (c) => String(c.model.pcieGen),
  "pcie.link.gen.gpumax": (c) => String(c.model.pcieGen),
  "pcie.link.width.current": () => "16",
  "pcie.link.width.max": () => "16",
  index: (c) => String(c.gpu.index),
  display_mode: (c) => if590(c, "Disabled"),
  display_attached: () => "Yes",
  display_active: () => "Disabled",
  persistence_mode: () => "Enabled",
  addressing_mode: () => "None",
  "accounting.mode": () => "Disabled",
  "accounting.buffer_size": () => "4000",
  vbios_version: (c) => c.model.vbios,
  "inforom.img": (c) => c.model.inforom.img,
  "inforom.oem": (c) => c.model.inforom.oem,
  "inforom.ecc": (c) => c.model.inforom.ecc,
  "inforom.checksum_validation": () => "valid",
  gpu_recovery_action: () => "None",
  "fan.speed": (c) => (c.s.fanSpeedPct === null ? NA : String(c.s.fanSpeedPct)),
  pstate: (c) => `P${c.s.pstate}`,
  ...reasonFields(),
  "memory.total": (c) => String(c.gpu.memoryTotalMiB),
  "memory.reserved": (c) => String(c.model.memory.reservedMiB),
  "memory.used": (c) => String(used(c)),
  "memory.free": (c) => String(free(c)),
  compute_mode: () => "Default",
  compute_cap: (c) => c.model.computeCap,
  "utilization.gpu": (c) => utilization(c, c.s.utilizationGpu),
  "utilization.memory": (c) => utilization(c, c.s.utilizationMemory),
  "utilization.encoder": engines,
  "utilization.decoder": engines,
  "utilization.jpeg": newEngines,
  "utilization.ofa": newEngines,
  "encoder.stats.sessionCount": () => "0",
  "encoder.stats.averageFps": () => "0",
  "encoder.stats.averageLatency": () => "0",
  "ecc.mode.current": () => "Enabled",
  "ecc.mode.pending": () => "Enabled",
  ...eccFields(),
  "retired_pages.single_bit_ecc.count": retired((c) => String(c.s.eccCorrected > 0 ? 1 : 0)),
  "retired_pages.double_bit.count": retired((c) => String(c.s.eccUncorrected)),
  "retired_pages.pending": retired(() => "No"),
  "remapped_rows.correctable": remapped(() => "0"),
  "remapped_rows.uncorrectable": remapped((c) => String(c.s.eccUncorrected)),
  "remapped_rows.pending": remapped(() => "No"),
  "remapped_rows.failure": remapped(() => "No"),
  "remapped_rows.histogram.max": (c) =>
    c.model.remapHistogramMax === null ? NA : String(c.model.remapHistogramMax),
  "remapped_rows.histogram.high": (c) => (c.model.remapHistogramMax === null ? NA : "0"),
  "remapped_rows.histogram.partial": (c) => (c.model.remapHistogramMax === null ? NA : "0"),
  "remapped_rows.histogram.low": (c) => (c.model.remapHistogramMax === null ? NA : "0"),
  "remapped_rows.histogram.none": (c) => (c.model.remapHistogramMax === null ? NA : "0"),
  "temperature.gpu": (c) => String(c.s.temperatureC),
  "temperature.gpu.tlimit": hopperOnly((c) => String(Math.max(0, 84 - c.s.temperatureC))),
  "temperature.memory": (c) =>
    c.model.memory.hbm ? String(c.s.temperatureC + (hashString(c.gpu.uuid) % 13) - 7) : NA,
  "power.management": (c) => if590(c, "Enabled"),
  "power.draw": (c) => w(c.s.powerDrawW),
  "power.draw.average": average,
  "power.draw.instant": (c) =>
    average(c) === NA ? NA : w(c.s.powerDrawW * (1 + ((hashString(c.gpu.uuid) % 41) - 20) / 1000)),
  "power.limit": (c) => w(c.gpu.powerLimitW),
  "enforced.power.limit": (c) => w(c.gpu.powerLimitW),
  "power.default_limit": (c) => w(c.model.power.limitW),
  "power.min_limit": (c) => w(c.model.power.minW),
  "power.max_limit": (c) => w(c.model.power.limitW),
  edpp_multiplier: hopperOnly("100.00"),
  "clocks.current.graphics": (c) => String(c.s.smClockMHz),
  "clocks.current.sm": (c) => String(c.s.smClockMHz),
  "clocks.current.memory": (c) => String(c.s.memClockMHz),
  "clocks.current.video": (c) =>
    String(clockedUp(c) ? c.model.clocks.videoMax : c.model.clocks.videoIdle),
  "clocks.applications.graphics": (c) => if590(c, String(c.model.clocks.smMax)),
  "clocks.applications.memory": (c) => if590(c, String(c.model.clocks.memMax)),
  "clocks.default_applications.graphics": (c) => if590(c, String(c.model.clocks.smMax)),
  "clocks.default_applications.memory": (c) => if590(c, String(c.model.clocks.memMax)),
  "clocks.max.graphics": (c) => String(c.model.clocks.smMax),
  "clocks.max.sm": (c) => String(c.model.clocks.smMax),
  "clocks.max.memory": (c) => String(c.model.clocks.memMax),
  "mig.mode.current": (c) => migMode(c),
  "mig.mode.pending": (c) => migMode(c),
  "gsp.mode.current": (c) => (c.model.arch === "Volta" ? NA : "Enabled"),
  "gsp.mode.default": (c) => (c.model.arch === "Volta" ? NA : "Enabled"),
  "c2c.mode": hopperOnly("Disabled"),
  "protected_memory.total": hopperOnly("0"),
  "protected_memory.used": hopperOnly("0"),
  "protected_memory.free": hopperOnly("0"),
  "fabric.state": hopperOnly("Completed"),
  "fabric.status": hopperOnly("Success"),
  "fabric.cliqueId": hopperOnly("0"),
  "fabric.clusterUuid": hopperOnly("00000000-0000-0000-0000-000000000000"),
  "platform.chassis_serial_number": hopperOnly(""),
  "platform.slot_number": hopperOnly("0"),
  "platform.tray_index": hopperOnly("0"),
  "platform.host_id": hopperOnly("1"),
  "platform.peer_type": hopperOnly("Direct Connected"),
  "platform.module_id": hopperOnly((c) => String(c.gpu.index + 1)),
  "platform.gpu_fabric_guid": hopperOnly("0x0000000000000000"),
  ...fabricHealthFields(hopperOnly("N/A")),
};

function migMode(c: FieldContext): string {
  if (!c.model.migProfiles && c.model.name !== "NVIDIA H200") return NA;
  return mig(c) ? "Enabled" : "Disabled";
}
