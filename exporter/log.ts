// A small logfmt logger on stderr, shaped like the Prometheus exporters' output.
// Warnings that can repeat every interval (a bad line, a dead child) are rate-limited per key,
// so a broken nvidia-smi cannot flood the journal.

export type Level = "debug" | "info" | "warn" | "error";

export interface Logger {
  log(level: Level, msg: string, fields?: Record<string, unknown>): void;
  /** At most one line per key and window; the next one says how many were suppressed. */
  limited(key: string, level: Level, msg: string, fields?: Record<string, unknown>): void;
}

const ORDER: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };

function quote(value: unknown): string {
  const text = value instanceof Error ? value.message : String(value);
  return /^[A-Za-z0-9_.:/@+-]+$/.test(text) ? text : JSON.stringify(text);
}

export interface LoggerOptions {
  minLevel?: Level;
  windowMs?: number;
  write?: (line: string) => void;
  now?: () => number;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const minLevel = opts.minLevel ?? "info";
  const windowMs = opts.windowMs ?? 60_000;
  const write = opts.write ?? ((line: string) => process.stderr.write(line + "\n"));
  const now = opts.now ?? Date.now;
  const windows = new Map<string, { until: number; suppressed: number }>();

  const log = (level: Level, msg: string, fields: Record<string, unknown> = {}): void => {
    if (ORDER[level] < ORDER[minLevel]) return;
    const parts = [`time=${new Date(now()).toISOString()}`, `level=${level}`, `msg=${quote(msg)}`];
    for (const [k, v] of Object.entries(fields)) {
      if (v !== undefined) parts.push(`${k}=${quote(v)}`);
    }
    write(parts.join(" "));
  };

  return {
    log,
    limited(key, level, msg, fields = {}) {
      const t = now();
      const w = windows.get(key);
      if (w && t < w.until) {
        w.suppressed += 1;
        return;
      }
      const suppressed = w?.suppressed ?? 0;
      windows.set(key, { until: t + windowMs, suppressed: 0 });
      if (windows.size > 1000) windows.clear(); // keys embed error texts; keep the map bounded
      log(level, msg, suppressed > 0 ? { ...fields, suppressed } : fields);
    },
  };
}

/** For tests and embedding: drops everything. */
export const silentLogger: Logger = { log() {}, limited() {} };
