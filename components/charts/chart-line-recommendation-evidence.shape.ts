import type { EvidencePoint } from "@/lib/zod/schemas/recommendation.ts";

// A recommendation's evidence window as chart rows: one point per UTC day, every series in %.

export const EVIDENCE_LINES = [
  { key: "utilP95", label: "p95 utilization", color: "#1f5fbf", dash: undefined },
  { key: "utilMean", label: "mean utilization", color: "#6b8fc9", dash: "4 3" },
  { key: "memPeakPct", label: "peak memory", color: "#8a5a00", dash: undefined },
  { key: "idlePct", label: "idle time", color: "#b3261e", dash: "2 2" },
  { key: "upPct", label: "up time", color: "#1f7a4d", dash: "6 3" },
] as const;

export interface EvidenceRow {
  t: number;
  label: string;
  utilP95: number | null;
  utilMean: number | null;
  memPeakPct: number | null;
  idlePct: number | null;
  upPct: number | null;
}

const day = new Intl.DateTimeFormat("en-GB", { day: "2-digit", month: "short", timeZone: "UTC" });

export function shapeEvidence(series: readonly EvidencePoint[]): {
  rows: EvidenceRow[];
  lines: (typeof EVIDENCE_LINES)[number][];
  hasData: boolean;
} {
  const rows = [...series]
    .sort((a, b) => a.t - b.t)
    .map((p) => ({
      t: p.t,
      label: day.format(new Date(p.t)),
      utilP95: p.utilP95,
      utilMean: p.utilMean,
      memPeakPct: p.memPeakPct,
      idlePct: p.idlePct,
      upPct: p.upPct,
    }));
  const lines = EVIDENCE_LINES.filter((l) => rows.some((r) => r[l.key] !== null));
  return { rows, lines, hasData: lines.length > 0 };
}
