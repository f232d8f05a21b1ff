import { ALIBABA_REQUIRED, mapAlibaba, mapTencent, TENCENT_REQUIRED } from "./formats/china.ts";
import { columnKey, hasColumns } from "./formats/cells.ts";
import { CUR2_REQUIRED, mapCur2 } from "./formats/cur2.ts";
import { FOCUS_REQUIRED, mapFocus } from "./formats/focus.ts";
import { BillFormatError, type BillFormat, type RowResult } from "./types.ts";

// Which export a file is, from its header: each format has a column only it writes, then must
// have all the columns it needs (a file that looks like one but lacks some is refused by name).

interface FormatSpec {
  format: BillFormat;
  /** a column that only this format has */
  marker: string;
  required: readonly string[];
  map: (rec: Map<string, unknown>) => RowResult;
}

const FORMATS: readonly FormatSpec[] = [
  { format: "focus", marker: "EffectiveCost", required: FOCUS_REQUIRED, map: mapFocus },
  { format: "cur2", marker: "line_item_line_item_type", required: CUR2_REQUIRED, map: mapCur2 },
  { format: "alibaba", marker: "PretaxAmount", required: ALIBABA_REQUIRED, map: mapAlibaba },
  { format: "tencent", marker: "Usage Start Time", required: TENCENT_REQUIRED, map: mapTencent },
];

export function detectFormat(columns: readonly string[], expected?: BillFormat): FormatSpec {
  const header = new Set(columns.map(columnKey));
  const spec = FORMATS.find((f) =>
    expected ? f.format === expected : header.has(columnKey(f.marker)),
  );
  if (!spec) {
    throw new BillFormatError(
      "not a known billing export: expected a FOCUS 1.0–1.2 file (EffectiveCost), AWS CUR 2.0 " +
        "(line_item_line_item_type), an Alibaba Cloud bill detail (PretaxAmount) or a Tencent " +
        "Cloud bill detail (Usage Start Time)",
    );
  }
  if (!hasColumns(header, spec.required)) {
    const missing = spec.required.filter((c) => !header.has(columnKey(c)));
    throw new BillFormatError(`a ${spec.format} export needs the columns ${missing.join(", ")}`);
  }
  return spec;
}
