// Building blocks of the `nvidia-smi -q -x` document: element nesting, the ctime stamp,
// one <mig_device>, and <process_info> entries tied to their MIG instance.
import { migMultiprocessors, type GpuModel } from "./gpu-models.ts";
import type { SimGpuSample, SimGpuSpec, SimMigInstance } from "./types.ts";

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ");

export function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** ctime-style, as the capture prints it: "Fri Aug  4 11:44:30 2023" */
export function ctime(at: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  const day = String(at.getUTCDate()).padStart(2, " ");
  const time = `${p(at.getUTCHours())}:${p(at.getUTCMinutes())}:${p(at.getUTCSeconds())}`;
  return `${DAYS[at.getUTCDay()]} ${MONTHS[at.getUTCMonth()]} ${day} ${time} ${at.getUTCFullYear()}`;
}

/** Nested elements from [tag, value | children] pairs, four spaces per level. */
export type Node = readonly [string, string | readonly Node[]];
export function xml(nodes: readonly Node[], depth: number): string {
  const ind = "    ".repeat(depth);
  return nodes
    .map(([tag, v]) =>
      typeof v === "string"
        ? `${ind}<${tag}>${esc(v)}</${tag}>\n`
        : `${ind}<${tag}>\n${xml(v, depth + 1)}${ind}</${tag}>\n`,
    )
    .join("");
}

export const mib = (n: number) => `${n} MiB`;

export function migDevice(model: GpuModel, mi: SimMigInstance, index: number, used: number): Node {
  const sms = migMultiprocessors(model, mi.profile);
  const slices = Number.parseInt(mi.profile, 10) || 1;
  return [
    "mig_device",
    [
      ["index", String(index)],
      ["gpu_instance_id", String(mi.gpuInstanceId)],
      ["compute_instance_id", String(mi.computeInstanceId)],
      [
        "device_attributes",
        [
          [
            "shared",
            [
              ["multiprocessor_count", String(sms)],
              ["copy_engine_count", String(Math.max(1, Math.floor(slices * 1.2)))],
              ["encoder_count", "0"],
              ["decoder_count", String(Math.max(1, Math.floor(slices * 0.7)))],
              ["ofa_count", slices >= 7 ? "1" : "0"],
              ["jpg_count", slices >= 7 ? "1" : "0"],
            ],
          ],
        ],
      ],
      ["ecc_error_count", [["volatile_count", [["sram_uncorrectable", "0"]]]]],
      [
        "fb_memory_usage",
        [
          ["total", mib(mi.memoryTotalMiB)],
          ["reserved", mib(0)],
          ["used", mib(used)],
          ["free", mib(Math.max(0, mi.memoryTotalMiB - used - 1))],
        ],
      ],
      [
        "bar1_memory_usage",
        [
          ["total", mib(32767)],
          ["used", mib(0)],
          ["free", mib(32767)],
        ],
      ],
    ],
  ];
}

export function processNodes(gpu: SimGpuSpec, s: SimGpuSample): Node[] {
  // under MIG each occupied instance (used above its 12 MiB floor) runs one process, in order
  const occupied = (gpu.mig ?? []).filter(
    (mi) => (s.migMemoryUsedMiB?.[mi.gpuInstanceId] ?? 0) > 12,
  );
  return s.processes.map((p, i) => {
    const mi = gpu.profile === "mig" ? occupied[i] : undefined;
    return [
      "process_info",
      [
        ["gpu_instance_id", mi ? String(mi.gpuInstanceId) : "N/A"],
        ["compute_instance_id", mi ? String(mi.computeInstanceId) : "N/A"],
        ["pid", String(p.pid)],
        ["type", "C"],
        ["process_name", p.processName],
        ["used_memory", mib(p.usedMemoryMiB)],
      ],
    ];
  });
}
