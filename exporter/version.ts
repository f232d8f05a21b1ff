// The exporter's version for gpu_exporter_build_info, read once from the package.json above
// this file: exporter/ under tsx, dist/exporter/ once compiled.

import { readFileSync } from "node:fs";

function find(): string {
  for (const up of ["../package.json", "../../package.json", "../../../package.json"]) {
    try {
      const pkg: unknown = JSON.parse(readFileSync(new URL(up, import.meta.url), "utf8"));
      if (typeof pkg === "object" && pkg !== null && "name" in pkg && pkg.name === "gpufleet") {
        return "version" in pkg && typeof pkg.version === "string" ? pkg.version : "unknown";
      }
    } catch {
      // not at this level; try the next one up
    }
  }
  return "unknown";
}

export const VERSION = find();
