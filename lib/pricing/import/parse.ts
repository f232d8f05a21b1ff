import { formatMicros } from "../../core/money.ts";
import { amountSchema, httpUrlSchema } from "../../zod/schemas/common.ts";
import { parseAwsCsv } from "./aws-csv.ts";
import { parseAwsJson } from "./aws-json.ts";
import { parseAzureRetail } from "./azure-retail.ts";
import { parseCsvTemplate } from "./csv-template.ts";
import { parseGcpCatalog } from "./gcp-catalog.ts";
import {
  emptyParsed,
  ImportFormatError,
  mergeParsed,
  type ImportFile,
  type ImportProvider,
  type ImportRow,
  type ParsedImport,
  type ParseOptions,
} from "./types.ts";

// One entry point for the CLI and the upload route: the provider picks the parser (AWS by the
// file's first character, JSON or CSV), several files of one provider merge into one import.

/** The first non-blank character of a source, and the source again with nothing lost. */
async function sniff(f: ImportFile): Promise<{ first: string; file: ImportFile }> {
  const it = (async function* () {
    yield* f.source;
  })();
  const seen: (Uint8Array | string)[] = [];
  let first = "";
  while (first === "") {
    const next = await it.next();
    if (next.done) break;
    seen.push(next.value);
    const text =
      typeof next.value === "string" ? next.value : Buffer.from(next.value).toString("latin1");
    first = text
      .replace(/^\uFEFF/, "")
      .trimStart()
      .charAt(0);
  }
  async function* replay(): AsyncGenerator<Uint8Array | string> {
    yield* seen;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { first, file: { name: f.name, source: replay() } };
}

async function parseOne(
  provider: ImportProvider,
  f: ImportFile,
  opts: ParseOptions,
): Promise<ParsedImport> {
  switch (provider) {
    case "aws": {
      const { first, file } = await sniff(f);
      if (first === "{") return parseAwsJson(file, opts);
      if (first === '"' || first === "F") return parseAwsCsv(file, opts);
      throw new ImportFormatError(
        f.name,
        "line 1",
        first === "" ? "the file is empty" : "neither an AWS offer file in JSON nor in CSV",
      );
    }
    case "azure":
      return parseAzureRetail(f, opts);
    case "gcp":
      return parseGcpCatalog(f, opts);
    case "alibaba":
    case "tencent":
      return parseCsvTemplate(provider, f);
  }
}

/** Parses every file; the first malformed one stops the import (nothing is written). */
export async function parseImport(
  provider: ImportProvider,
  files: readonly ImportFile[],
  opts: ParseOptions = {},
): Promise<ParsedImport> {
  if (files.length === 0) throw new ImportFormatError("(no file)", "", "give at least one file");
  const url = opts.sourceUrl === undefined ? null : httpUrlSchema.safeParse(opts.sourceUrl);
  if (url && !url.success) {
    const why = url.error.issues[0]?.message ?? "not a URL";
    throw new ImportFormatError(files[0]?.name ?? "", "source URL", why);
  }
  const total = emptyParsed();
  for (const f of files) mergeParsed(total, await parseOne(provider, f, opts));
  for (const r of total.rows) checkAmount(r);
  return total;
}

/**
 * Every imported price passes the amount schema a typed price passes (at most 12 integer digits:
 * a price list's 1e23 or $9,000,000,000,000.5 is a broken file, not a price), in the preview
 * already, so nothing implausible reaches the store.
 */
function checkAmount(r: ImportRow): void {
  const usd = formatMicros(r.usdPerHourMicros);
  const ok = amountSchema.safeParse(usd);
  if (ok.success) return;
  const where = r.where.startsWith(`${r.file} `) ? r.where.slice(r.file.length + 1) : r.where;
  throw new ImportFormatError(
    r.file,
    where,
    `${r.instanceType} ${r.region} ${r.pricingModel} at ${usd} USD per hour: ${ok.error.issues[0]?.message ?? "not a price"}`,
  );
}
