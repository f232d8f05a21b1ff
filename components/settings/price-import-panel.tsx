"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  contentTypeFor,
  importUrl,
  needsSourceDate,
  skippedList,
  uploadProblem,
  type UploadProvider,
} from "@/lib/pricing/import/upload.ts";
import { importResultSchema, type ImportResultDto } from "@/lib/pricing/import/schema.ts";
import { pricingQueries } from "@/lib/queries/admin.ts";
import { fleetQueries } from "@/lib/queries/fleet.ts";
import {
  postFile,
  UploadApplied,
  UploadApply,
  UploadError,
  useUploadFlow,
} from "./upload-flow.tsx";

// Finance imports GPU prices from a provider's published price list, always through a preview:
// the preview lists the rows that would be added and the conflicts (rows already priced
// differently, never overwritten); Apply sends the same file again and writes.

const PROVIDERS: { value: UploadProvider; label: string; hint: string }[] = [
  { value: "aws", label: "AWS", hint: "an AmazonEC2 offer file excerpt (.json or .csv)" },
  { value: "azure", label: "Azure", hint: "one Retail Prices API page (.json)" },
  { value: "gcp", label: "Google Cloud", hint: "one Billing Catalog SKU page (.json)" },
  { value: "alibaba", label: "Alibaba Cloud", hint: "the price template (.csv)" },
  { value: "tencent", label: "Tencent Cloud", hint: "the price template (.csv)" },
];

export function PriceImportPanel() {
  const client = useQueryClient();
  const [provider, setProvider] = useState<UploadProvider>("aws");
  const [sourceDate, setSourceDate] = useState("");
  const flow = useUploadFlow<ImportResultDto>(
    (f, mode) =>
      postFile(
        importUrl(provider, f.name, sourceDate, mode),
        f,
        contentTypeFor(f.name),
        importResultSchema,
      ),
    () => {
      void client.invalidateQueries({ queryKey: pricingQueries.all() });
      void client.invalidateQueries({ queryKey: fleetQueries.all() });
    },
  );
  const { file, preview, applied, busy } = flow;
  const problem = uploadProblem(provider, file, sourceDate);
  const hint = PROVIDERS.find((p) => p.value === provider)?.hint ?? "";

  return (
    <section
      className="panel"
      aria-labelledby="price-import-title"
      data-testid="price-import-panel"
    >
      <div className="panel-head">
        <h2 id="price-import-title">Import a price list</h2>
        <span className="muted small">
          GPU prices from a provider&apos;s published price list, saved as a file; a preview first.
          Uploads stop at 16 MiB: a region&apos;s full AWS offer file is imported on the server with{" "}
          <code>npm run pricing:import</code>
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
          Provider
          <select
            value={provider}
            onChange={(e) => {
              setProvider(e.target.value as UploadProvider);
              flow.reset();
            }}
            data-testid="price-import-provider"
          >
            {PROVIDERS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          File <span className="muted small">({hint})</span>
          <input
            type="file"
            accept=".json,.csv,application/json,text/csv"
            onChange={(e) => flow.choose(e.target.files?.[0] ?? null)}
            data-testid="price-import-file"
          />
        </label>
        {needsSourceDate(provider) ? (
          <label className="field">
            Downloaded on (the page carries no date)
            <input
              type="date"
              value={sourceDate}
              onChange={(e) => {
                setSourceDate(e.target.value);
                flow.reset();
              }}
              data-testid="price-import-date"
            />
          </label>
        ) : null}
        <div className="form-actions">
          <button
            type="submit"
            disabled={problem !== null || busy}
            data-testid="price-import-preview"
          >
            {flow.previewing ? "Reading…" : "Preview"}
          </button>
          {file && problem ? <span className="muted small">{problem}</span> : null}
        </div>
      </form>

      <UploadError error={flow.error} applyFailed={flow.applyFailed} testId="price-import-error" />
      <UploadApplied applied={applied} noun="prices" testId="price-import-result" />
      {preview ? <ImportPreview r={preview} /> : null}
      {preview && preview.added > 0 && file ? (
        <UploadApply flow={flow} count={preview.added} noun="prices" testId="price-import-apply" />
      ) : null}
    </section>
  );
}

function ImportPreview({ r }: { r: ImportResultDto }) {
  const skipped = skippedList(r);
  return (
    <div data-testid="price-import-summary">
      <p className="muted small" data-testid="price-import-counts">
        {r.describes.join("; ")}. {r.added} prices to add, {r.unchanged} already in the catalogue,{" "}
        {r.conflicts.length} conflicts, {r.skippedNonGpu} products that are not GPU instances left
        out.
      </p>
      {r.conflicts.length > 0 ? (
        <div className="banner" data-testid="price-import-conflicts">
          <strong>Conflicts</strong>
          <span>
            These are already priced differently and stay as they are; change them in the table
            above, or import a list with a later effective date.
          </span>
          <ul>
            {r.conflicts.map((c) => (
              <li key={`${c.instanceType}|${c.region}|${c.pricingModel}|${c.effectiveFrom}`}>
                {c.instanceType} {c.region} {c.pricingModel.replace(/_/g, "-")}: stored $
                {c.storedUsdPerHour}, list ${c.importedUsdPerHour}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {r.addedRows.length > 0 ? (
        <div className="table-wrap">
          <table className="data" data-testid="price-import-rows">
            <thead>
              <tr>
                <th>Instance type</th>
                <th>Region</th>
                <th>Pricing model</th>
                <th>GPUs</th>
                <th className="num">Price</th>
                <th>From</th>
                <th>Note</th>
              </tr>
            </thead>
            <tbody>
              {r.addedRows.map((row) => (
                <tr
                  key={`${row.instanceType}|${row.region}|${row.pricingModel}|${row.effectiveFrom}`}
                >
                  <td className="mono">{row.instanceType}</td>
                  <td>
                    {row.region === "*" ? <span className="muted">any region</span> : row.region}
                  </td>
                  <td>{row.pricingModel.replace(/_/g, "-")}</td>
                  <td>
                    {row.gpuCount}× {row.gpuModel}
                  </td>
                  <td className="num">${row.usdPerHour}/h</td>
                  <td>{row.effectiveFrom.slice(0, 10)}</td>
                  <td className="wrap">{row.note ?? <span className="muted">—</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {skipped.length > 0 ? (
        <details className="small">
          <summary>Left out ({skipped.reduce((n, s) => n + s.count, 0)})</summary>
          <ul>
            {skipped.map((s) => (
              <li key={s.reason}>
                {s.count} × {s.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
