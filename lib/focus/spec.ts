import spec from "./spec/focus-1.2-columns.json" with { type: "json" };
import type { FocusSpec, SpecColumn } from "./spec/parse-spec.ts";

// The FOCUS 1.2 column definitions, as derived from the specification's own column files
// (lib/focus/spec/README.md says from which commit and how).

export const FOCUS_SPEC = spec as FocusSpec;

const byId = new Map(FOCUS_SPEC.columns.map((c) => [c.columnId, c]));

/** The spec's definition of a column, or undefined when FOCUS 1.2 has no such column. */
export function specColumn(columnId: string): SpecColumn | undefined {
  return byId.get(columnId);
}

export function mandatoryColumns(s: FocusSpec = FOCUS_SPEC): string[] {
  return s.columns.filter((c) => c.featureLevel === "Mandatory").map((c) => c.columnId);
}
