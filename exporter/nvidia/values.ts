// Pure parsing of single nvidia-smi values. nvidia-smi prints "absent" in many spellings,
// bracketed ("[N/A]", "[Not Supported]", "[GPU requires reset]", ...) or bare ("N/A"), and
// an absent value must become an absent series, never a 0.

const BARE_ABSENT = new Set([
  "",
  "N/A",
  "NA",
  "Not Supported",
  "Unknown Error",
  "Insufficient Permissions",
  "ERR!",
  "Unknown",
]);

export function isAbsent(raw: string): boolean {
  const v = raw.trim();
  return BARE_ABSENT.has(v) || (v.startsWith("[") && v.endsWith("]"));
}

/**
 * To the base unit (bytes, hertz, ratio, watts, celsius, seconds). Negative entries divide:
 * 38 / 100 is exactly 0.38 where 38 * 0.01 is not.
 */
const UNIT_SCALE: Record<string, number> = {
  B: 1,
  KiB: 1024,
  MiB: 1024 ** 2,
  GiB: 1024 ** 3,
  Hz: 1,
  kHz: 1e3,
  MHz: 1e6,
  GHz: 1e9,
  "%": -100,
  W: 1,
  mW: -1000,
  C: 1,
  us: -1e6,
  ms: -1e3,
  s: 1,
};

export type Unit = keyof typeof UNIT_SCALE;

const NUMBER_WITH_UNIT = /^([-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*([A-Za-z%]+)?$/;

export type Parsed<T> = { ok: true; value: T } | { ok: false; absent: boolean };

const ABSENT: Parsed<never> = { ok: false, absent: true };
const INVALID: Parsed<never> = { ok: false, absent: false };

/**
 * A number in base units. `defaultUnit` applies to bare numbers (`--format=csv,nounits`);
 * a unit printed with the value ("8192 MiB", "38 %") wins, so both formats parse alike.
 */
export function parseNumber(raw: string, defaultUnit?: Unit): Parsed<number> {
  if (isAbsent(raw)) return ABSENT;
  const m = NUMBER_WITH_UNIT.exec(raw.trim());
  if (!m) return INVALID;
  const unit = m[2] ?? defaultUnit;
  const scale = unit === undefined ? 1 : UNIT_SCALE[unit];
  if (scale === undefined) return INVALID;
  const n = Number(m[1]);
  const value = scale < 0 ? n / -scale : n * scale;
  return Number.isFinite(value) ? { ok: true, value } : INVALID;
}

export function parseInteger(raw: string): Parsed<number> {
  if (isAbsent(raw)) return ABSENT;
  const v = raw.trim();
  return /^\d+$/.test(v) ? { ok: true, value: Number(v) } : INVALID;
}

const TRUE_WORDS = new Set(["enabled", "active", "yes", "on", "true"]);
const FALSE_WORDS = new Set(["disabled", "not active", "no", "off", "false"]);

/** Enabled/Disabled, Active/Not Active, Yes/No. */
export function parseBool(raw: string): Parsed<boolean> {
  if (isAbsent(raw)) return ABSENT;
  const v = raw.trim().toLowerCase();
  if (TRUE_WORDS.has(v)) return { ok: true, value: true };
  if (FALSE_WORDS.has(v)) return { ok: true, value: false };
  return INVALID;
}

/** "P0".."P15" → 0..15. */
export function parsePstate(raw: string): Parsed<number> {
  if (isAbsent(raw)) return ABSENT;
  const m = /^P(\d{1,2})$/.exec(raw.trim());
  if (!m) return INVALID;
  const n = Number(m[1]);
  return n <= 15 ? { ok: true, value: n } : INVALID;
}

/** "0x00000000000001FF" → 511n. Bitmasks are 64-bit, hence bigint. */
export function parseHex(raw: string): Parsed<bigint> {
  if (isAbsent(raw)) return ABSENT;
  const v = raw.trim();
  return /^0x[0-9a-fA-F]{1,16}$/.test(v) ? { ok: true, value: BigInt(v) } : INVALID;
}

/** A free-text value ("NVIDIA H100 80GB HBM3"); absent tokens become undefined. */
export function parseText(raw: string): string | undefined {
  return isAbsent(raw) ? undefined : raw.trim();
}
