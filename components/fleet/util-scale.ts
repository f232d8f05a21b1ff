import type { GpuStatus } from "@/lib/zod/schemas/fleet-values.ts";

// Viridis: perceptually uniform and readable with the common colour-vision deficiencies, unlike a
// red/green ramp. Status is never carried by colour alone: see the cell patterns in globals.css.

const VIRIDIS = [
  "#440154",
  "#482475",
  "#414487",
  "#355f8d",
  "#2a788e",
  "#21918c",
  "#22a884",
  "#44bf70",
  "#7ad151",
  "#bddf26",
  "#fde725",
] as const;

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function hex([r, g, b]: [number, number, number]): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;
}

/** Utilization 0–1 → viridis colour (clamped). */
export function utilColor(util: number): string {
  const x = Math.min(1, Math.max(0, Number.isFinite(util) ? util : 0)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(x));
  const f = x - i;
  const a = rgb(VIRIDIS[i] ?? VIRIDIS[0]);
  const b = rgb(VIRIDIS[i + 1] ?? VIRIDIS[10]);
  return hex([a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f]);
}

/** Legend stops for the scale, 0 % to 100 %. */
export function legendStops(n = 6): { util: number; color: string }[] {
  return Array.from({ length: n }, (_, i) => {
    const util = i / (n - 1);
    return { util, color: utilColor(util) };
  });
}

export const STATUS_LABELS: Record<GpuStatus, string> = {
  busy: "in use",
  held_idle: "held but idle",
  empty_idle: "idle, nothing attached",
  mig: "MIG partitioned",
  not_reporting: "not reporting",
};

/** The cell's fill: utilization colour where there is one, else none (the CSS pattern shows). */
export function cellFill(status: GpuStatus, util: number | null): string | undefined {
  if (status === "not_reporting" || status === "mig" || util === null) return undefined;
  return utilColor(util);
}
