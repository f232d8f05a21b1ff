"use client";

import { useState } from "react";
import { focusExportUrl, type FocusFormat, type FocusGranularity } from "@/lib/focus/query.ts";

/** The month's ledger as a FOCUS 1.2 file: CSV or Parquet, one row per host per day or hour. */
export function FocusExport({ month }: { month: string }) {
  const [format, setFormat] = useState<FocusFormat>("csv");
  const [granularity, setGranularity] = useState<FocusGranularity>("daily");
  return (
    <div className="filters" role="group" aria-label="FOCUS 1.2 export">
      <label className="field">
        Format
        <select
          value={format}
          onChange={(e) => setFormat(e.target.value as FocusFormat)}
          data-testid="focus-format"
        >
          <option value="csv">CSV</option>
          <option value="parquet">Parquet</option>
        </select>
      </label>
      <label className="field">
        Rows
        <select
          value={granularity}
          onChange={(e) => setGranularity(e.target.value as FocusGranularity)}
          data-testid="focus-granularity"
        >
          <option value="daily">per host per day</option>
          <option value="hourly">per host per hour</option>
        </select>
      </label>
      <a
        className="button-link"
        href={focusExportUrl({ month, format, granularity })}
        download
        data-testid="focus-export"
      >
        Download FOCUS 1.2
      </a>
      <span className="muted small" data-testid="focus-note">
        FOCUS is the FinOps Foundation&apos;s open format for cost data: FinOps tools and finance
        systems import it as they import a cloud bill.
      </span>
    </div>
  );
}
