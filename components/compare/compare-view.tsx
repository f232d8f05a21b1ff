"use client";

import { useQuery } from "@tanstack/react-query";
import { monthLabel } from "@/lib/core/months.ts";
import { bannerFor } from "@/lib/fleet/health.ts";
import { monthSchema } from "@/lib/zod/schemas/month.ts";
import { MonthPicker } from "../costs/month-picker.tsx";
import { SourceBanner } from "../source-banner.tsx";
import { useSearchState } from "../use-search-state.ts";
import { BenchmarksPanel } from "./benchmarks-panel.tsx";
import { compareQueries } from "./compare-queries.ts";
import { pricingLabel, type Filters } from "./filters.ts";
import { OffersCharts } from "./offers-charts.tsx";
import { OffersSection } from "./offers-table.tsx";
import { RepriceSection } from "./reprice-table.tsx";
import { SpecsTable } from "./specs-table.tsx";

export function CompareView({ canWrite }: { canWrite: boolean }) {
  const [params, setParams] = useSearchState();
  const raw = params.get("month");
  const parsed = monthSchema.safeParse(raw);
  const compare = useQuery(compareQueries.month(parsed.success ? parsed.data : null));
  const c = compare.data;
  const filters: Filters = {
    model: params.get("gpu") ?? "",
    provider: params.get("provider") ?? "",
    pricingModel: params.get("pricing") ?? "",
  };
  const set = (key: string, value: string, mode: "replace" | "push" = "replace") => {
    const p = new URLSearchParams(params);
    if (value) p.set(key, value);
    else p.delete(key);
    setParams(p, mode);
  };
  const banner = bannerFor({
    health: undefined,
    requestError: compare.error?.message ?? null,
    dataUpdatedAt: compare.dataUpdatedAt,
  });

  return (
    <>
      <div className="page-title">
        <h1>Compare clouds</h1>
        <p>
          Per GPU: every catalogue offer in force now, per GPU-hour · the fleet&apos;s month:{" "}
          {c ? monthLabel(c.month) : "this month"} (UTC)
        </p>
        <span className="spacer" />
        {c ? <MonthPicker month={c.month} onChange={(m) => set("month", m, "push")} /> : null}
      </div>
      <SourceBanner banner={banner} onRetry={() => void compare.refetch()} />
      {!c ? (
        compare.isPending ? (
          <p className="loading" role="status">
            Loading the comparison…
          </p>
        ) : null
      ) : (
        <>
          <div className="filters" role="group" aria-label="Filters">
            <Select
              label="GPU model"
              testId="filter-gpu"
              value={filters.model}
              onChange={(v) => set("gpu", v)}
              options={c.models.map((m) => [m.model, m.label])}
            />
            <Select
              label="Provider"
              testId="filter-provider"
              value={filters.provider}
              onChange={(v) => set("provider", v)}
              options={c.providers.map((p) => [p, p])}
            />
            <Select
              label="Pricing model"
              testId="filter-pricing"
              value={filters.pricingModel}
              onChange={(v) => set("pricing", v)}
              options={c.pricingModels.map((p) => [p, pricingLabel(p)])}
            />
          </div>
          <OffersCharts c={c} filters={filters} />
          <RepriceSection c={c} filters={filters} />
          <OffersSection c={c} filters={filters} />
          <BenchmarksPanel rows={c.benchmarks} canWrite={canWrite} />
          <SpecsTable specs={c.specs} />
        </>
      )}
    </>
  );
}

function Select(props: {
  label: string;
  testId: string;
  value: string;
  onChange: (v: string) => void;
  options: [string, string][];
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
        {props.options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}
