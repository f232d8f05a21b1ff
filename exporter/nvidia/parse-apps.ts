// Pure parser for `nvidia-smi --query-compute-apps=... --format=csv[,noheader][,nounits]`.
// A process name may contain ", " and nvidia-smi does not quote it, so surplus cells are
// folded back into the process_name column wherever it sits.

import type { ParseResult, ProcessReading } from "../readings.ts";
import { parseInteger, parseNumber, parseText } from "./values.ts";

const ALIASES: Record<string, string> = {
  gpu_uuid: "gpu_uuid",
  uuid: "gpu_uuid",
  pid: "pid",
  process_name: "process_name",
  name: "process_name",
  used_gpu_memory: "used_memory",
  used_memory: "used_memory",
};

function canonical(name: string): string | undefined {
  return ALIASES[name.replace(/\s*\[[^\]]*\]\s*$/, "").trim()];
}

export function parseComputeApps(text: string, columns?: string[]): ParseResult<ProcessReading> {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  let names = columns;
  if (!names) {
    const header = lines.shift();
    if (header === undefined) return { items: [], warnings: [] };
    names = header.split(",").map((h) => h.trim());
  }
  const keys = names.map(canonical);
  const nameCol = keys.indexOf("process_name");
  const items: ProcessReading[] = [];
  const warnings: string[] = [];
  for (const line of lines) {
    if (line.startsWith("No running processes found")) continue;
    let cells = line.split(",");
    const surplus = cells.length - keys.length;
    if (surplus > 0 && nameCol >= 0) {
      const joined = cells.slice(nameCol, nameCol + surplus + 1).join(",");
      cells = [...cells.slice(0, nameCol), joined, ...cells.slice(nameCol + surplus + 1)];
    }
    if (cells.length !== keys.length) {
      warnings.push(`expected ${keys.length} fields, got ${cells.length}: ${line.slice(0, 120)}`);
      continue;
    }
    const get = (key: string) => cells[keys.indexOf(key)] ?? "";
    const uuid = parseText(get("gpu_uuid"));
    const pid = parseInteger(get("pid"));
    if (uuid === undefined || !/^(GPU|MIG)-/.test(uuid) || !pid.ok) {
      warnings.push(`no valid gpu_uuid/pid: ${line.slice(0, 120)}`);
      continue;
    }
    const proc: ProcessReading = {
      gpuUuid: uuid,
      pid: pid.value,
      processName: parseText(get("process_name")) ?? "",
    };
    const mem = parseNumber(get("used_memory"), "MiB");
    if (mem.ok) proc.usedMemoryBytes = mem.value;
    else if (!mem.absent) warnings.push(`bad used_memory ${JSON.stringify(get("used_memory"))}`);
    items.push(proc);
  }
  return { items, warnings };
}
