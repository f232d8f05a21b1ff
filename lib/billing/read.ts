import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { parse } from "csv-parse";
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from "hyparquet";
import { BillFormatError, type RawRecord } from "./types.ts";

// Reads a bill file as records, streaming: CSV through csv-parse (gzip through node:zlib first),
// Parquet one row group at a time through hyparquet. What kind a file is comes from its first
// bytes, not its name: 1f 8b is gzip, "PAR1" is Parquet, anything else is read as CSV.

export type FileKind = "csv" | "csv.gz" | "parquet";

export async function fileKind(path: string): Promise<FileKind> {
  const fh = await open(path, "r");
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await fh.read(head, 0, 4, 0);
    if (bytesRead >= 2 && head[0] === 0x1f && head[1] === 0x8b) return "csv.gz";
    if (bytesRead === 4 && head.toString("latin1") === "PAR1") return "parquet";
    return "csv";
  } finally {
    await fh.close();
  }
}

/** CSV records from a byte stream: the first line is the header; a byte-order mark is dropped. */
export async function* csvRecords(input: Readable): AsyncGenerator<RawRecord> {
  const parser = parse({
    columns: (header: string[]) => header.map((h) => h.trim()),
    bom: true,
    skip_empty_lines: true,
    relax_column_count: false,
  });
  input.on("error", (e) => parser.destroy(e));
  input.pipe(parser);
  try {
    for await (const rec of parser) yield rec as RawRecord;
  } catch (e) {
    if (
      e instanceof Error &&
      /^(CSV_|INVALID_|Invalid)/.test(String((e as { code?: string }).code ?? e.message))
    ) {
      throw new BillFormatError(`not a readable CSV: ${e.message}`);
    }
    if (e instanceof Error && (e as { code?: string }).code === "Z_DATA_ERROR") {
      throw new BillFormatError(`not a readable gzip file: ${e.message}`);
    }
    throw e;
  } finally {
    input.destroy();
  }
}

async function* parquetRecords(path: string): AsyncGenerator<RawRecord> {
  const file = await asyncBufferFromFile(path);
  let metadata;
  try {
    metadata = await parquetMetadataAsync(file);
  } catch (e) {
    throw new BillFormatError(`not a readable Parquet file: ${(e as Error).message}`);
  }
  let start = 0;
  for (const group of metadata.row_groups) {
    const end = start + Number(group.num_rows);
    const rows = await parquetReadObjects({ file, metadata, rowStart: start, rowEnd: end });
    for (const r of rows) yield r as RawRecord;
    start = end;
  }
}

/** The records of the bill at `path` (CSV, gzip CSV or Parquet). */
export async function* readBillFile(path: string): AsyncGenerator<RawRecord> {
  const kind = await fileKind(path);
  if (kind === "parquet") {
    yield* parquetRecords(path);
    return;
  }
  const raw = createReadStream(path, { highWaterMark: 256 * 1024 });
  yield* csvRecords(kind === "csv.gz" ? raw.pipe(createGunzip()) : raw);
}
