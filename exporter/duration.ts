// Go-style durations ("500ms", "5s", "1m30s"), the syntax Prometheus flags use.

const UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Milliseconds, or an Error describing what is wrong with the text. */
export function parseDuration(text: string): number | Error {
  const s = text.trim();
  if (s === "0") return 0;
  if (!/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(s)) {
    return new Error(`invalid duration "${text}" (use e.g. 500ms, 5s, 1m30s)`);
  }
  let ms = 0;
  for (const m of s.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) {
    ms += Number(m[1]) * (UNITS[m[2] ?? ""] ?? NaN);
  }
  return Number.isFinite(ms) ? ms : new Error(`invalid duration "${text}"`);
}
