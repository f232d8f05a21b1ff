// Shared by the simulator's tests: real-capture helpers and a fixed demo instant.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const FIXTURES = fileURLToPath(new URL("../test/fixtures/captures/", import.meta.url));

export function fixture(name: string): string {
  return readFileSync(`${FIXTURES}${name}`, "utf8");
}

/** header and first row of a `--format=csv` capture, units stripped from both */
export function captureRow(name: string): { fields: string[]; values: string[] } {
  const [header = "", row = ""] = fixture(name).split("\n");
  return {
    fields: header.split(", ").map((f) => f.replace(/ \[[^\]]*\]$/, "")),
    values: row.split(", ").map((v) => v.replace(/ (%|MiB|W|MHz|us|ms)$/, "")),
  };
}

/** The shape of a printed value, so our output can be compared with a capture. */
export function kind(v: string): string {
  if (v.startsWith("[") && v.endsWith("]")) return v;
  if (v === "N/A" || v === "") return JSON.stringify(v);
  if (/^0x[0-9A-F]+$/.test(v)) return `hex${v.length}`;
  if (/^-?\d+$/.test(v)) return "int";
  if (/^-?\d+\.\d\d$/.test(v)) return "dec2";
  if (/^(Active|Not Active)$/.test(v)) return "reason";
  if (/^(Enabled|Disabled)$/.test(v)) return "mode";
  if (/^(Yes|No)$/.test(v)) return "yesno";
  if (/^P\d+$/.test(v)) return "pstate";
  return "text";
}

/** a weekday afternoon in us-east-1 (Wednesday 2026-11-25 15:00 UTC) */
export const DEMO_AT = new Date("2026-11-25T15:00:00.000Z");
