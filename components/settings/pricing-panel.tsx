"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatMoney } from "@/lib/format/money.ts";
import { readPricePrefill, type PricePrefill } from "@/lib/pricing/prefill.ts";
import { pricingQueries } from "@/lib/queries/admin.ts";
import { fleetQueries } from "@/lib/queries/fleet.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import { pricingRowSchema, type PricingRowDto } from "@/lib/zod/schemas/pricing.ts";
import { useSearchState } from "../use-search-state.ts";
import { ConfirmButton } from "./form-bits.tsx";
import { PriceForm } from "./price-form.tsx";
import {
  matchesPricingFilters,
  NO_PRICING_FILTERS,
  staleCount,
  type PricingFilters,
} from "./pricing-filter.ts";
import { PricingFiltersBar } from "./pricing-filters-bar.tsx";
import { PricingTable } from "./pricing-table.tsx";
import { ratesQuery } from "./rates-panel.tsx";

const MODEL_ORDER = ["on_demand", "spot", "reserved"];

/** Provider, then instance type, region ("*" last), pricing model, newest price first. */
export function orderPricingRows(rows: readonly PricingRowDto[]): PricingRowDto[] {
  const modelRank = (m: string) => {
    const i = MODEL_ORDER.indexOf(m);
    return i < 0 ? MODEL_ORDER.length : i;
  };
  const regionKey = (r: string) => (r === "*" ? "\uffff" : r);
  return [...rows].sort(
    (a, b) =>
      a.provider.localeCompare(b.provider) ||
      a.instanceType.localeCompare(b.instanceType, undefined, { numeric: true }) ||
      regionKey(a.region).localeCompare(regionKey(b.region)) ||
      modelRank(a.pricingModel) - modelRank(b.pricingModel) ||
      b.effectiveFrom.localeCompare(a.effectiveFrom),
  );
}

/** "$32.7726/h"; a currency Intl does not know is written out instead of failing the table. */
export function hourlyPriceText(
  row: Pick<PricingRowDto, "usdPerHourMicros" | "usdPerHour" | "currency">,
): string {
  try {
    return `${formatMoney(row.usdPerHourMicros, row.currency || "USD", 4)}/h`;
  } catch {
    return `${row.usdPerHour} ${row.currency}/h`;
  }
}

export function pricingModelText(model: string): string {
  return model.replace(/_/g, "-");
}

/** "shipped" or who made it theirs, for the Origin column. */
export function originText(r: Pick<PricingRowDto, "origin" | "updatedBy">): string {
  if (r.origin === "shipped") return "shipped";
  return r.updatedBy ? `added or changed by ${r.updatedBy}` : "added or changed by a person";
}

type Editing = { kind: "new"; prefill: PricePrefill | null } | { kind: "edit"; row: PricingRowDto };

/** The price list the cost ledger uses: finance adds, changes and retires rows here. */
export function PricingPanel({ canWrite }: { canWrite: boolean }) {
  const [params] = useSearchState();
  const [showRetired, setShowRetired] = useState(false);
  const q = useQuery(pricingQueries.catalogue(showRetired ? "include" : "exclude"));
  const rows = q.data ? orderPricingRows(q.data.rows) : [];
  const rates = useQuery(ratesQuery()).data?.rows ?? null;
  const now = new Date();
  const [filters, setFilters] = useState<PricingFilters>(NO_PRICING_FILTERS);
  const shown = rows.filter((r) => matchesPricingFilters(r, filters, now));
  const prefill = canWrite ? readPricePrefill(params) : null;
  const [editing, setEditing] = useState<Editing | null>(() =>
    prefill ? { kind: "new", prefill } : null,
  );
  const [saved, setSaved] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const client = useQueryClient();
  const retire = useMutation({
    mutationFn: (id: string) =>
      sendJson("POST", `/api/pricing/${encodeURIComponent(id)}/retire`, {}, pricingRowSchema),
    onSuccess: (row) => {
      setConfirming(null);
      setSaved(row ? `Retired the ${describe(row)} price.` : null);
      void client.invalidateQueries({ queryKey: pricingQueries.all() });
      void client.invalidateQueries({ queryKey: fleetQueries.all() });
    },
  });
  return (
    <section
      className="panel"
      id="pricing"
      aria-labelledby="pricing-title"
      data-testid="pricing-panel"
    >
      <div className="panel-head">
        <h2 id="pricing-title">Pricing catalogue</h2>
        <span className="muted small">
          hourly prices the cost ledger uses; a change applies to hours from now on, and to past
          hours of the open month only when you re-price it (below); a row&apos;s source and note
          open from its last column
        </span>
        <span className="spacer" />
        <label className="small">
          <input
            type="checkbox"
            checked={showRetired}
            onChange={(e) => setShowRetired(e.target.checked)}
            data-testid="pricing-show-retired"
          />{" "}
          show retired
        </label>
        {canWrite && !editing ? (
          <button
            type="button"
            className="primary"
            onClick={() => {
              setSaved(null);
              setEditing({ kind: "new", prefill: null });
            }}
            data-testid="price-add"
          >
            Add price
          </button>
        ) : null}
      </div>
      {saved ? (
        <p className="banner ok" role="status" data-testid="price-saved">
          {saved}
        </p>
      ) : null}
      {editing ? (
        <PriceForm
          key={editing.kind === "edit" ? editing.row.id : "new"}
          row={editing.kind === "edit" ? editing.row : null}
          prefill={editing.kind === "new" ? editing.prefill : null}
          onDone={(row) => {
            setEditing(null);
            if (row) setSaved(`Saved the ${describe(row)} price.`);
          }}
        />
      ) : null}
      {q.error ? (
        <p className="field-error" role="alert">
          {q.error.message}
        </p>
      ) : null}
      {retire.error ? (
        <p className="field-error" role="alert">
          {retire.error.message}
        </p>
      ) : null}
      {q.isPending ? <p className="loading">Loading prices…</p> : null}
      {q.data ? (
        <>
          <PricingFiltersBar
            rows={rows}
            filters={filters}
            onChange={setFilters}
            shown={shown.length}
            total={rows.length}
            stale={staleCount(rows, now)}
          />
          <div className="table-wrap">
            <PricingTable
              rows={shown}
              rates={rates}
              now={now}
              describe={describe}
              pricingModelText={pricingModelText}
              hourlyPriceText={hourlyPriceText}
              originText={originText}
              actions={
                canWrite
                  ? (r) =>
                      r.retiredAt ? null : (
                        <>
                          <button
                            type="button"
                            onClick={() => {
                              setSaved(null);
                              setEditing({ kind: "edit", row: r });
                            }}
                            aria-label={`Change ${describe(r)} price`}
                            data-testid="price-edit"
                          >
                            Change
                          </button>
                          <ConfirmButton
                            verb="Retire"
                            subject={`${describe(r)} price`}
                            confirming={confirming === r.id}
                            disabled={retire.isPending}
                            onClick={() =>
                              confirming === r.id ? retire.mutate(r.id) : setConfirming(r.id)
                            }
                            onCancel={() => setConfirming(null)}
                            testId="price-retire"
                          />
                        </>
                      )
                  : undefined
              }
            />
            {rows.length === 0 ? <p className="muted">The catalogue is empty.</p> : null}
            {rows.length > 0 && shown.length === 0 ? (
              <p className="muted" data-testid="pricing-none-match">
                No price matches the filters.
              </p>
            ) : null}
          </div>
        </>
      ) : null}
    </section>
  );
}

function describe(r: Pick<PricingRowDto, "provider" | "instanceType" | "pricingModel" | "region">) {
  const region = r.region === "*" ? "" : ` ${r.region}`;
  return `${r.provider} ${r.instanceType}${region} ${pricingModelText(r.pricingModel)}`;
}
