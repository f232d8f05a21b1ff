// Sources return no point at all for a period without samples; a line drawn straight across that
// hole would invent data. Insert an explicit null where the spacing jumps, so the chart breaks.

/** The typical spacing of sorted timestamps (median of the differences). */
export function typicalStep(ts: readonly number[]): number | null {
  const diffs: number[] = [];
  for (let i = 1; i < ts.length; i += 1) {
    const d = (ts[i] ?? 0) - (ts[i - 1] ?? 0);
    if (d > 0) diffs.push(d);
  }
  if (diffs.length === 0) return null;
  diffs.sort((a, b) => a - b);
  return diffs[Math.floor(diffs.length / 2)] ?? null;
}

/** Rows sorted by `t`; a blank row goes after every jump of more than 2.5 × the usual step. */
export function withGaps<R extends { t: number }>(
  rows: readonly R[],
  blank: (t: number) => R,
): R[] {
  const step = typicalStep(rows.map((r) => r.t));
  if (step === null) return [...rows];
  const out: R[] = [];
  rows.forEach((r, i) => {
    const prev = rows[i - 1];
    if (prev && r.t - prev.t > 2.5 * step) out.push(blank(prev.t + step));
    out.push(r);
  });
  return out;
}
