"use client";

import { addMonths } from "@/lib/core/months.ts";

/** Previous / month input / next. The month is a UTC calendar month. */
export function MonthPicker({ month, onChange }: { month: string; onChange: (m: string) => void }) {
  return (
    <div className="filters" role="group" aria-label="Month">
      <button
        type="button"
        onClick={() => onChange(addMonths(month, -1))}
        aria-label="Previous month"
        data-testid="month-prev"
      >
        ←
      </button>
      <label className="field">
        <span className="sr-only">Month (UTC)</span>
        <input
          type="month"
          value={month}
          onChange={(e) => {
            if (/^\d{4}-\d{2}$/.test(e.target.value)) onChange(e.target.value);
          }}
          data-testid="month-input"
        />
      </label>
      <button
        type="button"
        onClick={() => onChange(addMonths(month, 1))}
        aria-label="Next month"
        data-testid="month-next"
      >
        →
      </button>
    </div>
  );
}
