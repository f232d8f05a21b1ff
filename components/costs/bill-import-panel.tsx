"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatMoney } from "@/lib/format/money.ts";
import { billingQueries } from "@/lib/queries/billing.ts";
import { ApiRequestError } from "@/lib/queries/settings-send.ts";
import {
  billContentType,
  billImportReportSchema,
  MAX_BILL_UPLOAD_BYTES,
  type BillImportReportDto,
} from "@/lib/zod/schemas/billing.ts";

// Finance imports a provider's cost export, always through a preview: the preview says what the
// file is, which rows it keeps (GPU-instance compute hours) and what it skips and why; Apply sends
// the same file again and keeps it (replacing an earlier import of the same provider and month).

function importUrl(fileName: string, mode: "preview" | "apply"): string {
  const base = fileName.split(/[\\/]/).pop() ?? "";
  const file = base
    .replace(/[^A-Za-z0-9._ ()-]/g, "_")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 120);
  return `/api/billing/import?${new URLSearchParams({ file: file || "bill", mode }).toString()}`;
}

async function send(url: string, file: File): Promise<BillImportReportDto> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": billContentType(file.name), accept: "application/json" },
    body: file,
    signal: AbortSignal.timeout(600_000),
  });
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const error = (data as { error?: unknown } | null)?.error;
    throw new ApiRequestError(res.status, typeof error === "string" ? error : `HTTP ${res.status}`);
  }
  const parsed = billImportReportSchema.safeParse(data);
  if (!parsed.success) throw new Error("unexpected response from the import");
  return parsed.data;
}

export function BillImportPanel() {
  const client = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<BillImportReportDto | null>(null);
  const [applied, setApplied] = useState<BillImportReportDto | null>(null);
  const previewMut = useMutation({
    mutationFn: (f: File) => send(importUrl(f.name, "preview"), f),
    onSuccess: (r) => {
      setPreview(r);
      setApplied(null);
    },
  });
  const applyMut = useMutation({
    mutationFn: (f: File) => send(importUrl(f.name, "apply"), f),
    onSuccess: (r) => {
      setApplied(r);
      setPreview(null);
      void client.invalidateQueries({ queryKey: billingQueries.all() });
    },
  });
  const tooBig = file !== null && file.size > MAX_BILL_UPLOAD_BYTES;
  const busy = previewMut.isPending || applyMut.isPending;
  const error = previewMut.error ?? applyMut.error;

  return (
    <section className="panel" aria-labelledby="bill-import-title" data-testid="bill-import-panel">
      <div className="panel-head">
        <h2 id="bill-import-title">Import a bill</h2>
        <span className="muted small">
          A provider&apos;s cost export: FOCUS 1.0–1.2 (AWS, Azure, Google Cloud), AWS CUR 2.0, or
          an Alibaba or Tencent bill detail; CSV, gzip or Parquet, up to 512 MiB (larger:{" "}
          <code>npm run billing:import</code> on the server). A preview first.
        </span>
      </div>
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (file && !tooBig) previewMut.mutate(file);
        }}
      >
        <label className="field">
          Bill file
          <input
            type="file"
            accept=".csv,.gz,.parquet"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setPreview(null);
              setApplied(null);
              previewMut.reset();
              applyMut.reset();
            }}
            data-testid="bill-import-file"
          />
        </label>
        <div className="form-actions">
          <button
            type="submit"
            disabled={!file || tooBig || busy}
            data-testid="bill-import-preview"
          >
            {previewMut.isPending ? "Reading…" : "Preview"}
          </button>
          {tooBig ? (
            <span className="muted small">over 512 MiB: import it with the CLI on the server</span>
          ) : null}
        </div>
      </form>
      {error ? (
        <p className="banner error" role="alert" data-testid="bill-import-error">
          <strong>{applyMut.error ? "Not imported" : "Not read"}</strong> {error.message}
        </p>
      ) : null}
      {applied ? (
        <p className="banner ok" role="status" data-testid="bill-import-result">
          <strong>Imported</strong> {applied.file}: {applied.lines} billed hours of{" "}
          {applied.instances} GPU instances for {applied.period ?? "no month"}
          {applied.replaced > 0 ? `, replacing ${applied.replaced} earlier import` : ""}.
        </p>
      ) : null}
      {preview ? <Preview r={preview} /> : null}
      {preview && preview.rowsKept > 0 && file ? (
        <div className="form-actions">
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => applyMut.mutate(file)}
            data-testid="bill-import-apply"
          >
            {applyMut.isPending ? "Importing…" : `Import ${preview.rowsKept} rows`}
          </button>
        </div>
      ) : null}
    </section>
  );
}

function Preview({ r }: { r: BillImportReportDto }) {
  const skipped = Object.entries(r.skipped);
  return (
    <div data-testid="bill-import-summary">
      <p className="small">
        {r.format ?? "unknown"} export, {r.providers.join(", ") || "no provider"}, {r.period ?? "—"}
        : {r.rowsRead} rows read, <strong>{r.rowsKept} kept</strong> as {r.lines} billed hours of{" "}
        {r.instances} GPU instances; billed {formatMoney(r.billedMicros)}, effective{" "}
        {formatMoney(r.effectiveMicros)}
        {r.currencies.some((c) => c !== "USD")
          ? ` (${r.currencies.join(", ")} converted at each hour's rate)`
          : ""}
        .
      </p>
      {skipped.length > 0 ? (
        <ul className="small muted" data-testid="bill-import-skipped">
          {skipped.map(([reason, n]) => (
            <li key={reason}>
              {n} skipped: {reason}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
