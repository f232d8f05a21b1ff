import { ByteWriter, ParquetWriter, type KeyValue, type SchemaElement } from "hyparquet-writer";
import { FOCUS_COLUMNS, KIND_SCALE, type ColumnDef, type FocusRow } from "./columns.ts";

// FOCUS rows as Apache Parquet with the types FOCUS names: Decimal columns as DECIMAL(18, s)
// holding the exact integer micro-units (money, s = 6) or nano-hours (quantities, s = 9), so no
// float touches a cost; Date/Time as TIMESTAMP (UTC-adjusted, milliseconds); String as UTF8;
// JSON (Tags, SkuPriceDetails) as the JSON logical type, which DuckDB and Spark read as JSON.
// Columns FOCUS never leaves empty are REQUIRED, so a reader knows they hold no nulls.

const PRECISION = 18;

function element(col: ColumnDef): SchemaElement {
  const repetition_type = col.nullable ? "OPTIONAL" : "REQUIRED";
  const name = col.name;
  switch (col.kind) {
    case "string":
      return {
        name,
        repetition_type,
        type: "BYTE_ARRAY",
        converted_type: "UTF8",
        logical_type: { type: "STRING" },
      };
    case "json":
      return {
        name,
        repetition_type,
        type: "BYTE_ARRAY",
        converted_type: "JSON",
        logical_type: { type: "JSON" },
      };
    case "datetime":
      return {
        name,
        repetition_type,
        type: "INT64",
        converted_type: "TIMESTAMP_MILLIS",
        logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MILLIS" },
      };
    case "money":
    case "quantity": {
      const scale = KIND_SCALE[col.kind];
      return {
        name,
        repetition_type,
        type: "INT64",
        converted_type: "DECIMAL",
        scale,
        precision: PRECISION,
        logical_type: { type: "DECIMAL", scale, precision: PRECISION },
      };
    }
    case "integer":
      return { name, repetition_type, type: "INT32" };
    case "double":
      return { name, repetition_type, type: "DOUBLE" };
  }
}

export function focusParquetSchema(): SchemaElement[] {
  return [{ name: "root", num_children: FOCUS_COLUMNS.length }, ...FOCUS_COLUMNS.map(element)];
}

/** A ByteWriter that hands each finished row group's bytes on instead of keeping the file. */
class ChunkWriter extends ByteWriter {
  readonly chunks: Uint8Array[] = [];

  flush(): void {
    if (this.index === 0) return;
    // getBytes() views the buffer that the next row group overwrites: copy it out
    this.chunks.push(this.getBytes().slice());
    this.index = 0;
  }
}

/** The values of a run of rows, column by column, in the writer's input form. */
function columnData(rows: readonly FocusRow[]) {
  return FOCUS_COLUMNS.map((col) => ({
    name: col.name,
    data: rows.map((r) => r[col.name]),
  }));
}

/**
 * The Parquet file as a byte stream. Rows are gathered into row groups of `rowGroupRows` and each
 * group is written and handed on before the next batch is read, so memory stays at about one
 * row group, whatever the range.
 */
export async function* focusParquetStream(
  batches: AsyncIterable<readonly FocusRow[]>,
  {
    kvMetadata = [],
    rowGroupRows = 20_000,
  }: { kvMetadata?: KeyValue[]; rowGroupRows?: number } = {},
): AsyncGenerator<Uint8Array> {
  const writer = new ChunkWriter();
  const parquet = new ParquetWriter({
    writer,
    schema: focusParquetSchema(),
    kvMetadata,
    createdBy: "gpufleet (hyparquet-writer)",
  });
  const writeGroup = (rows: readonly FocusRow[]) =>
    parquet.write({ columnData: columnData(rows), rowGroupSize: rows.length });
  let pending: FocusRow[] = [];
  for await (const rows of batches) {
    for (const r of rows) pending.push(r);
    if (pending.length >= rowGroupRows) {
      await writeGroup(pending);
      pending = [];
      yield* writer.chunks.splice(0);
    }
  }
  if (pending.length > 0) await writeGroup(pending);
  await parquet.finish();
  writer.flush();
  yield* writer.chunks.splice(0);
}
