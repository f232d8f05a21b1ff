"use client";

import { useQueryClient } from "@tanstack/react-query";
import {
  RATES_UPLOAD_MAX_BYTES,
  ratesUploadProblem,
  ratesUploadResultSchema,
  ratesUploadUrl,
  type RatesUploadResult,
} from "@/lib/pricing/rates-upload.ts";
import { pricingQueries } from "@/lib/queries/admin.ts";
import { fleetQueries } from "@/lib/queries/fleet.ts";
import {
  postFile,
  UploadApplied,
  UploadApply,
  UploadError,
  useUploadFlow,
} from "./upload-flow.tsx";

// Finance imports exchange rates from the Federal Reserve's H.10 (daily) or G.5 (monthly) series
// as downloaded, through a preview: the series read, the rates that would be added, and the days
// already stored at another figure (left as they are); Apply sends the same file again and writes.

export function RatesUploadPanel() {
  const client = useQueryClient();
  const flow = useUploadFlow<RatesUploadResult>(
    (f, mode) => postFile(ratesUploadUrl(f.name, mode), f, "text/csv", ratesUploadResultSchema),
    () => {
      void client.invalidateQueries({ queryKey: pricingQueries.all() });
      void client.invalidateQueries({ queryKey: fleetQueries.all() });
    },
  );
  const { file, preview, applied, busy } = flow;
  const problem = ratesUploadProblem(file);
  return (
    <section
      className="panel"
      aria-labelledby="rates-upload-title"
      data-testid="rates-upload-panel"
    >
      <div className="panel-head">
        <h2 id="rates-upload-title">Import exchange rates</h2>
        <span className="muted small">
          The Federal Reserve&apos;s H.10 (daily) or G.5 (monthly) series as its Data Download
          Program writes it: CSV, labels included, series in columns; a preview first. Uploads stop
          at {RATES_UPLOAD_MAX_BYTES / 2 ** 20} MiB (<code>npm run rates:import</code> on the server
          has no cap)
        </span>
      </div>
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!problem) flow.runPreview();
        }}
      >
        <label className="field">
          File <span className="muted small">(FRB_H10.csv or FRB_G5.csv)</span>
          <input
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => flow.choose(e.target.files?.[0] ?? null)}
            data-testid="rates-upload-file"
          />
        </label>
        <div className="form-actions">
          <button
            type="submit"
            disabled={problem !== null || busy}
            data-testid="rates-upload-preview"
          >
            {flow.previewing ? "Reading…" : "Preview"}
          </button>
          {file && problem ? <span className="muted small">{problem}</span> : null}
        </div>
      </form>
      <UploadError
        error={flow.error}
        applyFailed={flow.applyFailed}
        testId="rates-upload-error"
        listIssues
      />
      <UploadApplied
        applied={applied}
        noun="rates"
        testId="rates-upload-result"
        after="Re-price the months they cover to convert past hours with them."
      />
      {preview ? <RatesUploadPreview r={preview} /> : null}
      {preview && preview.added > 0 && file ? (
        <UploadApply flow={flow} count={preview.added} noun="rates" testId="rates-upload-apply" />
      ) : null}
    </section>
  );
}

/** What a preview found: each series, the counts, and the conflicts that stay as they are. */
export function RatesUploadPreview({ r }: { r: RatesUploadResult }) {
  return (
    <div data-testid="rates-upload-summary">
      <ul className="small" data-testid="rates-upload-series">
        {r.series.map((s) => {
          const span = r.span[s.currency];
          return (
            <li key={s.series}>
              {s.currency} <span className="mono">{s.series}</span>: {s.rates} rates
              {span ? ` from ${span[0]} to ${span[1]}` : ""}
              {s.noData > 0 ? `, ${s.noData} days without a rate (ND) skipped` : ""}
            </li>
          );
        })}
      </ul>
      <p className="muted small" data-testid="rates-upload-counts">
        {r.added} rates to add, {r.unchanged} already stored, {r.conflicts.length} conflicts.
      </p>
      {r.conflicts.length > 0 ? (
        <div className="banner" data-testid="rates-upload-conflicts">
          <strong>Conflicts</strong>
          <span>
            These days are already stored at another figure and stay as they are; retire the rate in
            the table above to replace it.
          </span>
          <ul>
            {r.conflicts.map((c) => (
              <li key={`${c.currency}|${c.effectiveFrom}`}>
                {c.currency} from {c.effectiveFrom.slice(0, 10)}: stored {c.existing} ({c.origin}),
                the file says {c.imported}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
