"use client";

import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { ExchangeRateRow } from "@/lib/pricing/fx.ts";
import { fetchJson, retryTransient } from "@/lib/queries/fetch-json.ts";
import { fleetQueries } from "@/lib/queries/fleet.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import {
  exchangeRateInputSchema,
  exchangeRateListSchema,
  exchangeRateRowSchema,
} from "@/lib/zod/schemas/exchange-rate.ts";
import { LocalTime } from "../time-zone.tsx";
import { FormError, requestErrors, TextField, zodErrors, type Errors } from "./form-bits.tsx";
import { StaleMark } from "./price-cells.tsx";
import { PricingSource } from "./pricing-source.tsx";

// The exchange rates prices kept in another currency (Alibaba's CNY rows) are converted with:
// each hour at the rate in force then. Finance may add a rate; a rate is never edited in place
// (a change is a new row from a later date), so past hours keep theirs.

/** The rates, parsed for the pages' arithmetic (dates as Dates). */
export const ratesQuery = () =>
  queryOptions({
    queryKey: ["pricing", "rates"] as const,
    queryFn: async ({ signal }) => {
      const data = await fetchJson("/api/pricing/rates", exchangeRateListSchema, signal);
      const rows: (ExchangeRateRow & { id: string; origin: string; updatedBy: string | null })[] =
        data.rows.map((r) => ({ ...r, effectiveFrom: new Date(r.effectiveFrom) }));
      return { rows };
    },
    staleTime: 5 * 60_000,
    retry: retryTransient,
  });

const EMPTY = { currency: "CNY", usdPerUnit: "", effectiveFrom: "", source: "", sourceDate: "" };
type Values = typeof EMPTY;

function RateForm({ onDone }: { onDone: (saved: string | null) => void }) {
  const [v, setV] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (body: Values) =>
      sendJson("POST", "/api/pricing/rates", body, exchangeRateRowSchema),
    onSuccess: (row) => {
      void client.invalidateQueries({ queryKey: ["pricing"] });
      void client.invalidateQueries({ queryKey: fleetQueries.all() });
      onDone(
        row
          ? `Added 1 ${row.currency} = $${row.usdPerUnit} from ${row.effectiveFrom.slice(0, 10)}.`
          : null,
      );
    },
    onError: (e) => setErrors(requestErrors(e)),
  });
  const input = (k: keyof Values, label: string, hint: string) => (
    <TextField
      label={label}
      value={v[k]}
      onChange={(value) => setV((old) => ({ ...old, [k]: value }))}
      error={errors[k]}
      hint={hint}
      testId={`rate-${k}`}
    />
  );
  return (
    <form
      className="form"
      noValidate
      aria-label="Add exchange rate"
      data-testid="rate-form"
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = exchangeRateInputSchema.safeParse(v);
        if (!parsed.success) return setErrors(zodErrors(parsed.error));
        setErrors({});
        save.mutate(v);
      }}
    >
      <FormError errors={errors} />
      {input("currency", "Currency", "ISO code, e.g. CNY")}
      {input("usdPerUnit", "US dollars per unit", "e.g. 0.13748728 (= 1 / 7.2734 CNY per USD)")}
      {input("effectiveFrom", "Effective from (UTC date)", "hours from this date convert at it")}
      {input("source", "Source", "e.g. Federal Reserve H.10, or the PBOC central parity")}
      {input("sourceDate", "Source date", "the day or month it was published, e.g. 2026-11")}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={save.isPending} data-testid="rate-save">
          Add rate
        </button>
        <button type="button" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function RatesPanel({ canWrite }: { canWrite: boolean }) {
  const q = useQuery(ratesQuery());
  const [adding, setAdding] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const now = new Date();
  return (
    <section className="panel" id="rates" aria-labelledby="rates-title" data-testid="rates-panel">
      <div className="panel-head">
        <h2 id="rates-title">Exchange rates</h2>
        <span className="muted small">
          prices kept in another currency convert to USD at the rate in force at each hour
        </span>
        <span className="spacer" />
        {canWrite && !adding ? (
          <button
            type="button"
            className="primary"
            onClick={() => setAdding(true)}
            data-testid="rate-add"
          >
            Add rate
          </button>
        ) : null}
      </div>
      {saved ? (
        <p className="banner ok" role="status" data-testid="rate-saved">
          {saved}
        </p>
      ) : null}
      {adding ? (
        <RateForm
          onDone={(msg) => {
            setAdding(false);
            setSaved(msg);
          }}
        />
      ) : null}
      {q.error ? (
        <p className="field-error" role="alert">
          {q.error.message}
        </p>
      ) : null}
      {q.data ? (
        <div className="table-wrap">
          <table className="data" data-testid="rates-table">
            <thead>
              <tr>
                <th>Currency</th>
                <th className="num">US dollars per unit</th>
                <th>Effective from</th>
                <th>Source</th>
                <th>Origin</th>
              </tr>
            </thead>
            <tbody>
              {q.data.rows.map((r) => (
                <tr key={r.id} data-testid="rate-row" data-currency={r.currency}>
                  <td>{r.currency}</td>
                  <td className="num mono">{r.usdPerUnit}</td>
                  <td>
                    <LocalTime value={r.effectiveFrom.toISOString()} />
                  </td>
                  <td className="wrap pricing-source">
                    <PricingSource text={r.source} />
                    <div className="muted small">
                      as of {r.sourceDate} <StaleMark sourceDate={r.sourceDate} now={now} />
                    </div>
                  </td>
                  <td className="small">
                    {r.origin === "shipped" ? "shipped" : `added by ${r.updatedBy ?? "a person"}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {q.data.rows.length === 0 ? <p className="muted">No exchange rates yet.</p> : null}
        </div>
      ) : null}
    </section>
  );
}
