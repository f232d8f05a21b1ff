import {
  MAX_UPLOAD_BYTES,
  UPLOAD_CONTENT_TYPES,
  UPLOAD_PROVIDERS,
  type ImportResultDto,
} from "./schema.ts";

// The settings panel's upload, as pure functions (the panel only renders): which content type a
// file is sent as, the request URL, what is wrong with a choice before anything is sent, and the
// skip reasons in the order to show them.

export type UploadProvider = (typeof UPLOAD_PROVIDERS)[number];

/** Azure and GCP pages carry no date of their own: the panel asks for the download day. */
export function needsSourceDate(provider: UploadProvider): boolean {
  return provider === "azure" || provider === "gcp";
}

/** "text/csv" for a .csv name, JSON otherwise. */
export function contentTypeFor(fileName: string): string {
  return /\.csv$/i.test(fileName) ? "text/csv" : "application/json";
}

/** A name the route accepts (letters, digits, dot, dash, underscore, space, parentheses). */
export function safeFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? "";
  const cleaned = base.replace(/[^A-Za-z0-9._ ()-]/g, "_").replace(/^[^A-Za-z0-9]+/, "");
  return (cleaned || "upload").slice(0, 120);
}

export function uploadProblem(
  provider: UploadProvider,
  file: { name: string; size: number } | null,
  sourceDate: string,
): string | null {
  if (!file) return "choose a file";
  if (file.size > MAX_UPLOAD_BYTES) {
    return `the file is ${(file.size / 2 ** 20).toFixed(0)} MiB; uploads stop at ${MAX_UPLOAD_BYTES / 2 ** 20} MiB: import a full AWS offer file with npm run pricing:import on the server`;
  }
  const type = contentTypeFor(file.name);
  if (!UPLOAD_CONTENT_TYPES[provider].includes(type)) {
    return `a ${provider} price list is ${UPLOAD_CONTENT_TYPES[provider].map((t) => (t === "text/csv" ? ".csv" : ".json")).join(" or ")}`;
  }
  if (needsSourceDate(provider) && !/^\d{4}-\d{2}-\d{2}$/.test(sourceDate)) {
    return "give the day the page was downloaded";
  }
  return null;
}

export function importUrl(
  provider: UploadProvider,
  fileName: string,
  sourceDate: string,
  mode: "preview" | "apply",
): string {
  const q = new URLSearchParams({ provider, file: safeFileName(fileName), mode });
  if (needsSourceDate(provider)) q.set("sourceDate", sourceDate);
  return `/api/pricing/import?${q.toString()}`;
}

/** Skip reasons, most frequent first. */
export function skippedList(
  r: Pick<ImportResultDto, "skipped">,
): { reason: string; count: number }[] {
  return Object.entries(r.skipped)
    .map(([reason, count]) => ({ reason, count }))
    .sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : 1));
}
