"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import {
  benchmarkImportResultSchema,
  benchmarkSchema,
  CSV_HEADER,
  type BenchmarkDto,
} from "@/lib/benchmarks/schema.ts";
import { formatMoney } from "@/lib/format/money.ts";
import { ApiRequestError, sendJson, type FieldIssue } from "@/lib/queries/settings-send.ts";
import { TableWrap } from "../table-wrap.tsx";
import { compareQueries } from "./compare-queries.ts";
import { pricingLabel } from "./filters.ts";

async function uploadCsv(text: string) {
  const res = await fetch("/api/benchmarks/import", {
    method: "POST",
    headers: { "content-type": "text/csv", accept: "application/json" },
    body: text,
    signal: AbortSignal.timeout(20_000),
  });
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const d = (data ?? {}) as { error?: unknown; issues?: unknown };
    throw new ApiRequestError(
      res.status,
      typeof d.error === "string" ? d.error : `HTTP ${res.status}`,
      Array.isArray(d.issues) ? (d.issues as FieldIssue[]) : [],
    );
  }
  return benchmarkImportResultSchema.parse(data);
}

function Problem({ error }: { error: Error | null }) {
  if (!error) return null;
  const issues = error instanceof ApiRequestError ? error.issues : [];
  return (
    <div className="banner error" role="alert" data-testid="benchmark-error">
      <strong>{error.message}</strong>
      {issues.length > 1 ? (
        <ul>
          {issues.slice(0, 10).map((i, n) => (
            <li key={n}>
              {i.path ? `${i.path}: ` : ""}
              {i.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

const FIELDS = [
  ["provider", "Provider", "aws"],
  ["instanceType", "Instance type", "p5.48xlarge"],
  ["workload", "Workload", "MLPerf Inference v4.1 Llama 2 70B"],
  ["unit", "Unit", "tokens/s"],
  ["value", "Value", "24525"],
  ["source", "Source", "URL or publication"],
  ["sourceDate", "Source date", "2025-11"],
  ["note", "Note", "optional"],
] as const;

/** Benchmark results with their cost per unit of work, the add form and the CSV upload. */
export function BenchmarksPanel({ rows, canWrite }: { rows: BenchmarkDto[]; canWrite: boolean }) {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: compareQueries.all() });
  const [notice, setNotice] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: uploadCsv,
    onSuccess: async (r) => {
      setNotice(`Imported ${r.lines} result(s): ${r.added} added, ${r.updated} updated`);
      await refresh();
    },
  });
  const add = useMutation({
    mutationFn: (body: Record<string, string>) =>
      sendJson("POST", "/api/benchmarks", { ...body, note: body.note || null }, benchmarkSchema),
    onSuccess: async () => {
      setNotice("Result added");
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      sendJson("DELETE", `/api/benchmarks/${encodeURIComponent(id)}`, undefined, null),
    onSuccess: refresh,
  });

  const onAdd = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    add.mutate(Object.fromEntries(FIELDS.map(([k]) => [k, String(data.get(k) ?? "")])));
  };

  return (
    <section className="panel" aria-labelledby="bench-title" data-testid="benchmarks">
      <div className="panel-head">
        <h2 id="bench-title">Benchmark results</h2>
        <span className="muted small">
          throughput per instance; cost per unit of work at the cheapest row in force of each
          pricing model. Shipped rows are published figures with their source.
        </span>
      </div>
      {notice ? (
        <p className="muted" role="status" data-testid="benchmark-notice">
          {notice}
        </p>
      ) : null}
      <Problem error={upload.error ?? add.error ?? remove.error} />
      <TableWrap label="Benchmark results table">
        <table className="data">
          <thead>
            <tr>
              <th scope="col">Provider</th>
              <th scope="col">Instance type</th>
              <th scope="col">Workload</th>
              <th className="num" scope="col">
                Result
              </th>
              <th scope="col">Cost per unit of work</th>
              <th scope="col">Source</th>
              {canWrite ? <th aria-label="Action" /> : null}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={7} className="muted">
                  No results yet: add one or upload a CSV.
                </td>
              </tr>
            ) : null}
            {rows.map((b) => (
              <tr key={b.id} data-testid="benchmark-row" data-instance-type={b.instanceType}>
                <td>{b.provider}</td>
                <td className="mono">{b.instanceType}</td>
                <td className="wrap">{b.workload}</td>
                <td className="num">
                  {new Intl.NumberFormat("en-US").format(b.value)} {b.unit}
                </td>
                <td className="small" data-testid="benchmark-costs">
                  {b.costs.length === 0
                    ? "no price in force for this type"
                    : b.costs.map((c) => (
                        <div key={c.pricingModel}>
                          {formatMoney(c.micros, "USD", 4)} {c.per.replace(/^\$ /, "")} (
                          {pricingLabel(c.pricingModel)})
                        </div>
                      ))}
                </td>
                <td className="wrap small">
                  {b.sourceDate} · {b.source}
                  {b.note ? <div className="muted">{b.note}</div> : null}
                </td>
                {canWrite ? (
                  <td>
                    {b.origin === "user" ? (
                      <button type="button" onClick={() => remove.mutate(b.id)}>
                        Delete
                      </button>
                    ) : (
                      <span className="muted small">shipped</span>
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {canWrite ? (
        <div className="compare-forms" style={{ marginTop: 16 }}>
          <label className="field">
            {/* the header is one long word: let it break anywhere on a phone */}
            <span style={{ overflowWrap: "anywhere" }}>
              Upload CSV (<code>{CSV_HEADER.join(",")}</code>)
            </span>
            <input
              type="file"
              accept=".csv,text/csv"
              data-testid="benchmark-csv"
              onChange={async (e) => {
                const file = e.target.files?.[0];
                e.target.value = "";
                if (file) upload.mutate(await file.text());
              }}
            />
          </label>
          <form
            onSubmit={onAdd}
            className="filters"
            aria-label="Add a benchmark result"
            data-testid="benchmark-form"
          >
            {FIELDS.map(([name, label, placeholder]) => (
              <label className="field" key={name}>
                <span>{label}</span>
                <input name={name} placeholder={placeholder} required={name !== "note"} />
              </label>
            ))}
            <button type="submit" disabled={add.isPending}>
              Add result
            </button>
          </form>
        </div>
      ) : null}
    </section>
  );
}
