"use client";

// The controls above the pricing catalogue: provider, instance type (typed, with the catalogue's
// types offered), region, GPU model, stale only, and how many rows the filters leave.
import {
  isFiltered,
  NO_PRICING_FILTERS,
  pricingFilterOptions,
  type PricingFilters,
} from "./pricing-filter.ts";

function Choice(props: {
  label: string;
  testId: string;
  value: string;
  options: readonly string[];
  text?: (v: string) => string;
  onChange: (v: string) => void;
}) {
  return (
    <label className="field">
      <span>{props.label}</span>
      <select
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid={props.testId}
      >
        <option value="">All</option>
        {props.options.map((o) => (
          <option key={o} value={o}>
            {props.text ? props.text(o) : o}
          </option>
        ))}
      </select>
    </label>
  );
}

export function PricingFiltersBar({
  rows,
  filters,
  onChange,
  shown,
  total,
  stale,
}: {
  rows: Parameters<typeof pricingFilterOptions>[0];
  filters: PricingFilters;
  onChange: (f: PricingFilters) => void;
  shown: number;
  total: number;
  stale: number;
}) {
  const o = pricingFilterOptions(rows);
  const set = (patch: Partial<PricingFilters>) => onChange({ ...filters, ...patch });
  return (
    <div className="filters pricing-filters" role="group" aria-label="Catalogue filters">
      <Choice
        label="Provider"
        testId="pricing-filter-provider"
        value={filters.provider}
        options={o.providers}
        onChange={(provider) => set({ provider })}
      />
      <label className="field">
        <span>Instance type</span>
        <input
          type="search"
          list="pricing-instance-types"
          value={filters.instanceType}
          placeholder="any"
          onChange={(e) => set({ instanceType: e.target.value })}
          data-testid="pricing-filter-type"
        />
        <datalist id="pricing-instance-types">
          {o.instanceTypes.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
      </label>
      <Choice
        label="Region"
        testId="pricing-filter-region"
        value={filters.region}
        options={o.regions}
        text={(r) => (r === "*" ? "any region (fallback)" : r)}
        onChange={(region) => set({ region })}
      />
      <Choice
        label="GPU model"
        testId="pricing-filter-gpu"
        value={filters.gpuModel}
        options={o.gpuModels}
        onChange={(gpuModel) => set({ gpuModel })}
      />
      <label className="check small">
        <input
          type="checkbox"
          checked={filters.staleOnly}
          onChange={(e) => set({ staleOnly: e.target.checked })}
          data-testid="pricing-filter-stale"
        />{" "}
        stale only ({stale})
      </label>
      <span className="muted small" role="status" data-testid="pricing-count">
        {shown === total ? `${total} rows` : `${shown} of ${total} rows`}
      </span>
      {isFiltered(filters) ? (
        <button
          type="button"
          onClick={() => onChange(NO_PRICING_FILTERS)}
          data-testid="pricing-filter-clear"
        >
          Clear filters
        </button>
      ) : null}
    </div>
  );
}
