// Display helpers for ratios and sizes. Locale fixed so server and browser render the same text.

const percent0 = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 0 });
const percent1 = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });
const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

/** 0.423 → "42%"; null → "—" */
export function formatRatio(ratio: number | null | undefined, digits: 0 | 1 = 0): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return "—";
  return (digits === 0 ? percent0 : percent1).format(ratio);
}

export function formatInteger(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "—";
  return integer.format(n);
}

const GIB = 1024 ** 3;
const TIB = 1024 ** 4;

/** Bytes as GiB (or TiB past 10 TiB): "79.6 GiB". */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return "—";
  if (bytes >= 10 * TIB) return `${oneDecimal.format(bytes / TIB)} TiB`;
  return `${oneDecimal.format(bytes / GIB)} GiB`;
}

/** "37.2 / 80.0 GiB"; both sides in TiB once the total passes 10 TiB. */
export function formatBytesOf(used: number | null, total: number | null): string {
  if (used === null || total === null) return formatBytes(used ?? total);
  const unit = total >= 10 * TIB ? TIB : GIB;
  return `${oneDecimal.format(used / unit)} / ${formatBytes(total)}`;
}

/** Hours with one decimal: "712.5 h". */
export function formatHours(seconds: number): string {
  return `${oneDecimal.format(seconds / 3600)} h`;
}
