"use client";

import { useId } from "react";
import { RANGE_LABELS, RANGES, type Range } from "@/lib/zod/schemas/range-values.ts";

/** Radio group styled as a segmented control: arrow keys move between ranges natively. */
export function RangePicker({ value, onChange }: { value: Range; onChange: (r: Range) => void }) {
  const name = useId();
  return (
    <fieldset className="segmented" data-testid="range-picker">
      <legend>Time range</legend>
      {RANGES.map((r) => (
        <label key={r} title={RANGE_LABELS[r]}>
          <input
            type="radio"
            name={name}
            value={r}
            checked={value === r}
            onChange={() => onChange(r)}
          />
          {r}
        </label>
      ))}
    </fieldset>
  );
}
